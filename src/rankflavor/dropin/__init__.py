"""Peers' command lines, rebuilt on rankflavor's engine: `rankflavor trec_eval` is trec_eval 10.0, flag for flag
and byte for byte (trec_eval.c, meas_print_single.c, meas_print_final.c)."""
