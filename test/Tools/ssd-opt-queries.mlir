// ssd-opt answers the questions front ends would otherwise answer with
// copies of its rules: what a memory size means and which policies exist.

// RUN: ssd-opt --ssd-memory-size=1e9 | FileCheck %s --check-prefix=SCI
// SCI: {{^}}1000000000{{$}}
// RUN: ssd-opt --ssd-memory-size=1.5GiB | FileCheck %s --check-prefix=GIB
// GIB: {{^}}1610612736{{$}}
// RUN: ssd-opt --ssd-memory-size=" 512 MiB " | FileCheck %s --check-prefix=SPACES
// SPACES: {{^}}536870912{{$}}
// RUN: not ssd-opt --ssd-memory-size=2XB 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: ssd-opt: invalid memory size '2XB'; expected e.g. 512MiB, 2GiB, 1.5GB or a number of bytes

// RUN: ssd-opt --ssd-list-policies | FileCheck %s --check-prefix=POLICIES
// POLICIES:      {{^}}ssd{{$}}
// POLICIES-NEXT: {{^}}reload-on-use{{$}}
// POLICIES-NEXT: {{^}}stash-window{{$}}
// POLICIES-NEXT: {{^}}aot-prefetch{{$}}
// POLICIES-NEXT: {{^}}fixed-depth{{$}}
// POLICIES-NEXT: {{^}}exact{{$}}
// POLICIES-NOT: {{.}}

// Without a query, ssd-opt still reads its input.
// RUN: ssd-opt %s | FileCheck %s --check-prefix=IR
// IR: func.func @f
func.func @f() {
  return
}
