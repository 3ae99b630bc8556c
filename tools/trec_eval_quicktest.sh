#!/bin/sh
# trec_eval's `make quicktest` (its Makefile) with `rankflavor trec_eval` in place of ./trec_eval, every one of
# its commands; run in trec_eval's source folder, given as the argument:
#   tools/trec_eval_quicktest.sh /path/to/trec_eval        (RANKFLAVOR overrides the command: default rankflavor)
# Each command's output is diffed with the expected file of trec_eval's test/ folder; exits 1 on any diff.
set -u
src=${1:?usage: tools/trec_eval_quicktest.sh TREC_EVAL_SOURCE_FOLDER}
rf=${RANKFLAVOR:-rankflavor}
cd "$src" || exit 2
failed=0
check() {  # expected-file, then trec_eval's arguments
  expected=$1; shift
  if $rf trec_eval "$@" | diff - "$expected" > /dev/null; then
    echo "ok    trec_eval $*"
  else
    echo "DIFF  trec_eval $*"; failed=1
  fi
}
check test/out.test test/qrels.test test/results.test
check test/out.test test/qrels.test.with-comments test/results.test
check test/out.comment.test test/qrels.comment.test test/results.comment.test
check test/out.test.a -m all_trec test/qrels.test test/results.test
check test/out.test.aq -m all_trec -q test/qrels.test test/results.test
check test/out.test.aqc -m all_trec -q -c test/qrels.test test/results.trunc
check test/out.test.aqcM -m all_trec -q -c -M100 test/qrels.test test/results.trunc
check test/out.test.aql -m all_trec -mrelstring.20 -q -l2 test/qrels.rel_level test/results.test
check test/out.test.meas_params -q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 \
  -m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 -mndcg.1=3,2=9,4=4.5 \
  -mndcg_cut.10,20,23.4 -msuccess.2,5,20 test/qrels.test test/results.test
check test/out.test.aqZ -q -m all_trec -Z test/zscores_file test/qrels.test test/results.test
check test/out.test.prefs -m all_prefs -q -R prefs test/prefs.test test/prefs.results.test
check test/out.test.prefs -m all_prefs -q -R prefs test/prefs.comment.test test/prefs.results.test
check test/out.test.qrels_prefs -m all_prefs -q -R qrels_prefs test/qrels.test test/results.test
check test/out.test.qrels_jg -m qrels_jg -q -R qrels_jg test/qrels.123 test/results.test
check test/out.test.qrels_jg -m qrels_jg -q -R qrels_jg test/qrels.comments.123 test/results.test
[ $failed = 0 ] && echo "quicktest: no diff" || echo "quicktest: some commands differ"
exit $failed
