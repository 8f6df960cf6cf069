// Tests that the committed ssd.kernel examples are what
// examples/gen_examples.py writes (it prints a diff when they are not).

// RUN: %python %ssd_src_root/examples/gen_examples.py --check
