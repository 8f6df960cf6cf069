// Tests that the committed ssd.kernel examples are what
// scripts/gen_examples.py writes (it prints a diff when they are not).

// RUN: %python %ssd_src_root/scripts/gen_examples.py --check
