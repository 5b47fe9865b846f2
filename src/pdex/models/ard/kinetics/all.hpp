#pragma once
// Every built-in kinetics (the CUDA engine instantiates them all in one translation unit).
#include "pdex/models/ard/kinetics/brusselator.hpp"
#include "pdex/models/ard/kinetics/cyclic_competition.hpp"
#include "pdex/models/ard/kinetics/fisher_kpp.hpp"
#include "pdex/models/ard/kinetics/fitzhugh_nagumo.hpp"
#include "pdex/models/ard/kinetics/gray_scott.hpp"
#include "pdex/models/ard/kinetics/schnakenberg.hpp"
#include "pdex/models/ard/kinetics/turing.hpp"
