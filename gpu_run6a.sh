#!/bin/bash
# session 6, call 1: opt-in level-0 scratch on the block driver; layer DGEMM on the 192 KB blocking
W=/tmp/s6a; mkdir -p $W
SKIP_TESTS=1 SKIP_SANITIZER=1 BENCH_ARGS="--full --only gemm/register_blocked,gemm/cublas" BENCH_PART=gemm \
  bash scripts/gpu_suite.sh $PWD/.deps/kokkos-cuda $W -DCMAKE_PREFIX_PATH=$PWD/.deps/catch2 > $OUT/suite.log 2>&1
B=/tmp/scratchkit-build-cuda
$B/tests/scratchkit_tests "[launch],[gemm]" > $OUT/tests.log 2>&1; echo "tests exit $?" >> $OUT/suite.log
tail -5 $OUT/tests.log >> $OUT/suite.log
SCRATCHKIT_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/tests/scratchkit_tests "[launch]" > $OUT/memcheck-launch.log 2>&1; echo "memcheck launch exit $?" >> $OUT/suite.log
tail -3 $OUT/memcheck-launch.log >> $OUT/suite.log
cp $W/summary.md $OUT/ 2>/dev/null; cp $W/results.tar.gz $OUT/ 2>/dev/null
cat $OUT/suite.log
