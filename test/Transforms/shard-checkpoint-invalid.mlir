// RUN: ssd-opt %s --split-input-file -ssd-shard-checkpoint="world-size=2 rank=2" --verify-diagnostics

// Tests that the rank lies within the world.
// expected-error @+1 {{ssd-shard-checkpoint expects world-size >= 1, 0 <= rank < world-size and every >= 1; got world-size=2 rank=2 every=1}}
func.func @step(%w: tensor<4xf32> {ssd.role = "param", ssd.name = "w"}) {
  return
}
