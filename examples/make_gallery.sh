#!/usr/bin/env bash
# Runs every example and stores its final picture in docs/gallery/<name>.png (the README shows them; of a
# 3D run, its last section by name: zmax before z48, z16 before y64).
# Usage, from the repository root:  examples/make_gallery.sh [pdex run options, e.g. --backend cuda]
# Writes the runs' outputs under out/<name>/ as the examples say; prints each run's wall time.
set -euo pipefail
pdex=${PDEX:-build/src/pdex/app/pdex}
mkdir -p docs/gallery
# name, field shown, and --half for the 512x512 run (keeps the picture small)
while read -r name field half; do
  start=$(date +%s.%N)
  "$pdex" run "examples/$name.toml" "$@" > "out/$name.log" 2>&1 || { echo "$name: failed, see out/$name.log"; exit 1; }
  end=$(date +%s.%N)
  last=$(ls "out/$name/${field}"_*.png | sort | tail -n 1)
  python3 examples/gallery.py "$last" "docs/gallery/$name.png" $half
  printf "%-24s %7.1f s  %s -> docs/gallery/%s.png (%s bytes)\n" "$name" "$(python3 -c "print($end - $start)")" \
    "$last" "$name" "$(stat -c %s "docs/gallery/$name.png")"
done <<'LIST'
turing_spots_demo v
turing_spots v --half
turing_stripes u
gray_scott_spots v
gray_scott_stripes v
gray_scott_waves v
fitzhugh_nagumo_spiral u
gray_scott_3d v
fitzhugh_nagumo_scroll u
turing_spots_3d v
equations_gray_scott_depth v
may_leonard_spirals u1
brusselator u
schnakenberg u
advection_steered v
anisotropic v
anisotropic_cn v
turing_spots_cn v --half
heat_seed004_exp1 u
heat_seed004_exp2 u
poisson_torsion u --half
poisson_cube u
heat_disc u
keller_segel_aggregation n
wave_drops u --half
LIST
