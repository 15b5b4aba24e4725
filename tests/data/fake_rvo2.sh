#!/bin/sh
# Stands in for scripts/peers/rvo2_circle in the CLI tests: checks the arguments
# `bench sim --rvo2` passes (UNITS SECONDS DT) and prints figures in the driver's form.
[ $# -eq 3 ] || { echo "usage: $0 UNITS SECONDS DT" >&2; exit 2; }
case "$3" in 0.0333333333333333*) ;; *) echo "unexpected DT $3" >&2; exit 3 ;; esac
echo "{\"units\":$1,\"steps\":150,\"micros_per_unit_step\":0.5,\"at_goal_pct\":100.000,\"seconds_to_arrive\":$2}"
