#pragma once
// Matrix Market (.mtx) files: a user's own linear systems for `pdex solve`. Reads "matrix coordinate"
// (real | integer | pattern; general | symmetric | skew-symmetric) and "matrix array" (real | integer;
// general); writes coordinate real general for matrices and array real general for vectors. Errors
// name the file, the line and what was expected there.
#include <string>
#include <vector>

#include "pdex/linalg/matrix.hpp"

namespace pdex {

CsrMatrix<double> read_matrix_market(const std::string& path);
// A vector: an n x 1 (or 1 x n) matrix in either layout.
std::vector<double> read_matrix_market_vector(const std::string& path);

void write_matrix_market(const std::string& path, const CsrMatrix<double>& m);
void write_matrix_market_vector(const std::string& path, const std::vector<double>& v);

}  // namespace pdex
