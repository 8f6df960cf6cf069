//===- ssd-ckpt.cpp - Inspect, verify, reshard and convert checkpoints ----===//
//
//   ssd-ckpt ls ROOT           checkpoints under ROOT, committed or not
//   ssd-ckpt inspect DIR       tensors, shapes, dtypes, chunk layout
//   ssd-ckpt verify DIR        every checksum of every chunk
//   ssd-ckpt reshard SRC DST --world-size M
//   ssd-ckpt gc ROOT --keep K
//   ssd-ckpt import-safetensors FILE DST --world-size N [--step S]
//   ssd-ckpt export-safetensors DIR FILE
//
// DIR and SRC name a checkpoint directory or a root whose `latest` names
// one; DST is a root that receives a committed checkpoint and its `latest`.
// Exit status: 0 on success, 1 on an error (printed with its cause), 2 on a
// usage error. Long work draws a progress bar on stderr when it is a
// terminal.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Checkpoint.h"
#include "ssd/Runtime/Checkpoint/Convert.h"
#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/Status.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ssd::rt;
using namespace ssd::rt::ckpt;

namespace {

constexpr const char *kUsage =
    "usage: ssd-ckpt COMMAND ...\n"
    "  ls ROOT                               list checkpoints under ROOT\n"
    "  inspect DIR                           show tensors and chunk layout\n"
    "  verify DIR                            check every chunk checksum\n"
    "  reshard SRC DST --world-size M        rewrite SRC for M ranks into "
    "root DST\n"
    "  gc ROOT --keep K                      keep the newest K checkpoints\n"
    "  import-safetensors FILE DST --world-size N [--step S]\n"
    "  export-safetensors DIR FILE\n"
    "DIR/SRC: a checkpoint directory, or a root whose 'latest' names one.\n";

struct UsageError {
  std::string message;
};

std::string humanBytes(uint64_t bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), unit ? "%.1f %s" : "%.0f %s", value,
                units[unit]);
  return text;
}

std::string shapeText(const std::vector<uint64_t> &values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + "]";
}

/// Draws "[#####.....]  45%  1.2 GiB / 2.6 GiB" on stderr, at most ten times
/// a second, and only when stderr is a terminal.
class ProgressBar {
public:
  explicit ProgressBar(const char *label)
      : label(label), enabled(::isatty(STDERR_FILENO)) {}
  ~ProgressBar() {
    if (drawn)
      std::fprintf(stderr, "\n");
  }
  ProgressFn callback() {
    if (!enabled)
      return {};
    return [this](uint64_t done, uint64_t total) { draw(done, total); };
  }

private:
  void draw(uint64_t done, uint64_t total) {
    auto now = std::chrono::steady_clock::now();
    if (drawn && done < total && now - last < std::chrono::milliseconds(100))
      return;
    last = now;
    drawn = true;
    constexpr int kWidth = 30;
    int filled = total ? int(kWidth * double(done) / double(total)) : kWidth;
    std::string bar(filled, '#');
    bar.append(kWidth - filled, '.');
    std::fprintf(stderr, "\r%s [%s] %3d%%  %s / %s", label, bar.c_str(),
                 total ? int(100 * double(done) / double(total)) : 100,
                 humanBytes(done).c_str(), humanBytes(total).c_str());
    std::fflush(stderr);
  }

  const char *label;
  bool enabled;
  bool drawn = false;
  std::chrono::steady_clock::time_point last;
};

/// Positional arguments and --name VALUE options of one command.
struct Arguments {
  std::vector<std::string> positional;
  std::vector<std::pair<std::string, std::string>> options;

  Arguments(int argc, char **argv, std::initializer_list<const char *> known) {
    for (int i = 2; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg.rfind("--", 0) != 0) {
        positional.push_back(arg);
        continue;
      }
      bool isKnown = false;
      for (const char *k : known)
        isKnown = isKnown || arg == k;
      if (!isKnown)
        throw UsageError{"unknown option " + arg};
      if (i + 1 == argc)
        throw UsageError{arg + " needs a value"};
      options.emplace_back(arg, argv[++i]);
    }
  }

  void expectPositional(size_t count) const {
    if (positional.size() != count)
      throw UsageError{"expected " + std::to_string(count) +
                       " arguments, found " +
                       std::to_string(positional.size())};
  }

  std::optional<uint64_t> number(const char *name, uint64_t min) const {
    for (const auto &[key, value] : options) {
      if (key != name)
        continue;
      char *end = nullptr;
      errno = 0;
      unsigned long long n = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end || errno || value[0] == '-' || n < min)
        throw UsageError{std::string(name) + " expects an integer >= " +
                         std::to_string(min) + ", not '" + value + "'"};
      return n;
    }
    return std::nullopt;
  }

  uint64_t required(const char *name, uint64_t min) const {
    auto n = number(name, min);
    if (!n)
      throw UsageError{std::string(name) + " is required"};
    return *n;
  }
};

int listCommand(const Arguments &args) {
  args.expectPositional(1);
  std::vector<CheckpointListing> all = listCheckpoints(args.positional[0]);
  std::printf("%-14s %-20s %-12s %12s\n", "STEP", "NAME", "STATE", "SIZE");
  for (const CheckpointListing &c : all)
    std::printf("%-14llu %-20s %-12s %12s%s\n", (unsigned long long)c.step,
                c.name.c_str(), c.committed ? "committed" : "uncommitted",
                humanBytes(c.bytes).c_str(), c.latest ? "  <- latest" : "");
  return 0;
}

int inspectCommand(const Arguments &args, IoEngine &engine) {
  args.expectPositional(1);
  CheckpointReader reader(engine, resolveCheckpointDir(args.positional[0]));
  const Manifest &m = reader.manifest();
  std::printf("checkpoint %s\n", reader.directory().c_str());
  std::printf("format version %u, step %llu, world size %u, xxh3-64 per "
              "%s block\n",
              m.version, (unsigned long long)m.step, m.worldSize,
              humanBytes(m.checksumBlockBytes).c_str());
  for (const RankState &r : m.ranks)
    std::printf("rank %u: %s (%s), rng %zu bytes, data-loader position "
                "%llu\n",
                r.rank, r.file.c_str(), humanBytes(r.fileBytes).c_str(),
                r.rng.size(), (unsigned long long)r.dataLoaderPosition);
  for (const TensorEntry &t : m.tensors) {
    std::printf("tensor %s: %s %s, %zu chunks\n", t.name.c_str(),
                dtypeName(t.dtype), shapeText(t.shape).c_str(),
                t.chunks.size());
    for (const Chunk &c : t.chunks)
      std::printf("  offsets %s sizes %s: %s at %llu, %llu bytes\n",
                  shapeText(c.offsets).c_str(), shapeText(c.sizes).c_str(),
                  c.file.c_str(), (unsigned long long)c.fileOffset,
                  (unsigned long long)c.length);
  }
  if (m.stateTree)
    std::printf("state tree:\n%s", writeJson(*m.stateTree).c_str());
  return 0;
}

int verifyCommand(const Arguments &args, IoEngine &engine) {
  args.expectPositional(1);
  CheckpointReader reader(engine, resolveCheckpointDir(args.positional[0]));
  {
    ProgressBar bar("verify");
    reader.verifyAll(bar.callback());
  }
  size_t chunks = 0;
  for (const TensorEntry &t : reader.manifest().tensors)
    chunks += t.chunks.size();
  std::printf("ok: %s: %zu tensors, %zu chunks, %s verified\n",
              reader.directory().c_str(), reader.manifest().tensors.size(),
              chunks, humanBytes(reader.bytesRead()).c_str());
  return 0;
}

void printConversion(const ConversionResult &result) {
  std::printf("committed %s: step %llu, world size %u, %zu tensors, %s read\n",
              result.directory.c_str(),
              (unsigned long long)result.manifest.step,
              result.manifest.worldSize, result.manifest.tensors.size(),
              humanBytes(result.bytesRead).c_str());
}

int reshardCommand(const Arguments &args, IoEngine &engine) {
  args.expectPositional(2);
  uint32_t worldSize = uint32_t(args.required("--world-size", 1));
  ProgressBar bar("reshard");
  ConversionResult result =
      reshardCheckpoint(engine, resolveCheckpointDir(args.positional[0]),
                        args.positional[1], worldSize, bar.callback());
  printConversion(result);
  return 0;
}

int gcCommand(const Arguments &args) {
  args.expectPositional(1);
  unsigned keep = unsigned(args.required("--keep", 1));
  std::vector<std::string> removed = collectGarbage(args.positional[0], keep);
  for (const std::string &name : removed)
    std::printf("removed %s\n", name.c_str());
  std::printf("%zu removed\n", removed.size());
  return 0;
}

int importCommand(const Arguments &args, IoEngine &engine) {
  args.expectPositional(2);
  uint32_t worldSize = uint32_t(args.required("--world-size", 1));
  ProgressBar bar("import");
  ConversionResult result =
      importSafetensors(engine, args.positional[0], args.positional[1],
                        worldSize, args.number("--step", 0), bar.callback());
  printConversion(result);
  return 0;
}

int exportCommand(const Arguments &args, IoEngine &engine) {
  args.expectPositional(2);
  std::string dir = resolveCheckpointDir(args.positional[0]);
  {
    ProgressBar bar("export");
    exportSafetensors(engine, dir, args.positional[1], bar.callback());
  }
  std::printf("wrote %s from %s\n", args.positional[1].c_str(), dir.c_str());
  return 0;
}

int run(int argc, char **argv) {
  if (argc < 2)
    throw UsageError{"missing command"};
  std::string command = argv[1];
  if (command == "-h" || command == "--help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (command == "ls")
    return listCommand(Arguments(argc, argv, {}));
  if (command == "gc")
    return gcCommand(Arguments(argc, argv, {"--keep"}));
  std::unique_ptr<IoEngine> engine = makeCheckpointEngine();
  if (command == "inspect")
    return inspectCommand(Arguments(argc, argv, {}), *engine);
  if (command == "verify")
    return verifyCommand(Arguments(argc, argv, {}), *engine);
  if (command == "reshard")
    return reshardCommand(Arguments(argc, argv, {"--world-size"}), *engine);
  if (command == "import-safetensors")
    return importCommand(Arguments(argc, argv, {"--world-size", "--step"}),
                         *engine);
  if (command == "export-safetensors")
    return exportCommand(Arguments(argc, argv, {}), *engine);
  throw UsageError{"unknown command '" + command + "'"};
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const UsageError &e) {
    std::fprintf(stderr, "ssd-ckpt: %s\n%s", e.message.c_str(), kUsage);
    return 2;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "ssd-ckpt: error: %s\n", e.what());
    return 1;
  }
}
