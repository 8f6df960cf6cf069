//===- Target.cpp - Machine rates the planner schedules against -----------===//
//
// Presets, the JSON target format and memory-size parsing. Preset numbers
// are datasheet peaks (sources in docs/targets.md); the I/O latency is a
// typical NVMe completion latency, not a datasheet figure. Calibrate with a
// JSON file when the real machine differs.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Target.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>

using namespace ssd::planner;
using llvm::createStringError;
using llvm::inconvertibleErrorCode;

namespace {
constexpr uint64_t kGiB = 1ull << 30;
// PCIe payload rate per direction for an x16 link after 128b/130b coding.
constexpr double kPcie4x16 = 31.5e9;
constexpr double kPcie5x16 = 63.0e9;
constexpr double kNvmeLatency = 20e-6;

struct Preset {
  llvm::StringLiteral name;
  double computeFlops, deviceMemoryBandwidth;
  uint64_t deviceMemoryBytes;
  double hostToDeviceBandwidth, deviceToHostBandwidth;
  double ssdReadBandwidth, ssdWriteBandwidth;

  Target target() const {
    Target target;
    target.name = name.str();
    target.computeFlops = computeFlops;
    target.deviceMemoryBandwidth = deviceMemoryBandwidth;
    target.deviceMemoryBytes = deviceMemoryBytes;
    target.hostToDeviceBandwidth = hostToDeviceBandwidth;
    target.deviceToHostBandwidth = deviceToHostBandwidth;
    target.ssdReadBandwidth = ssdReadBandwidth;
    target.ssdWriteBandwidth = ssdWriteBandwidth;
    target.ioLatencySeconds = kNvmeLatency;
    return target;
  }
};

const Preset kPresets[] = {
    // NVIDIA H100 SXM5 datasheet (989 TFLOPS dense BF16, 3.35 TB/s HBM3,
    // 80 GB); Samsung PM1743 datasheet (13.0 GB/s read, 6.6 GB/s write).
    {"h100-pcie5-pm1743", 989e12, 3.35e12, 80 * kGiB, kPcie5x16, kPcie5x16,
     13.0e9, 6.6e9},
    // Same GPU with four PM1743 striped (RAID 0), as in a DGX-class node.
    {"h100-pcie5-4xpm1743", 989e12, 3.35e12, 80 * kGiB, kPcie5x16, kPcie5x16,
     52.0e9, 26.4e9},
    // NVIDIA A100 80GB SXM datasheet (312 TFLOPS dense BF16, 2.039 TB/s);
    // Samsung PM9A3 datasheet (6.9 GB/s read, 4.1 GB/s write).
    {"a100-pcie4-pm9a3", 312e12, 2.039e12, 80 * kGiB, kPcie4x16, kPcie4x16,
     6.9e9, 4.1e9},
    // The PCIe card (1.935 TB/s HBM2e) with four PM9A3 striped (RAID 0),
    // the A100 target of issue 19.
    {"a100-pcie4-4xpm9a3", 312e12, 1.935e12, 80 * kGiB, kPcie4x16, kPcie4x16,
     27.6e9, 16.4e9},
    // NVIDIA Ada whitepaper, RTX 4090 (165 TFLOPS dense BF16 with FP32
    // accumulate, 1008 GB/s, 24 GB); Samsung 990 PRO datasheet (7.45 GB/s
    // read, 6.9 GB/s write).
    {"rtx4090-pcie4-990pro", 165e12, 1.008e12, 24 * kGiB, kPcie4x16, kPcie4x16,
     7.45e9, 6.9e9},
    // Host-only training: AMD EPYC 9654 (96 cores x 2.4 GHz x 32 FP32
    // FLOP/cycle, 12 channels of DDR5-4800 = 460.8 GB/s), 384 GiB of RAM as
    // the "device" memory, one 990 PRO; no host<->device hop.
    {"epyc9654-990pro", 7.37e12, 460.8e9, 384 * kGiB, 0, 0, 7.45e9, 6.9e9},
};
} // namespace

llvm::Error Target::validate() const {
  auto positive = [](double value) {
    return value > 0 && std::isfinite(value);
  };
  if (!positive(computeFlops) || !positive(deviceMemoryBandwidth) ||
      !positive(ssdReadBandwidth) || !positive(ssdWriteBandwidth))
    return createStringError(inconvertibleErrorCode(),
                             "target '%s': compute, device memory and SSD "
                             "rates must be positive",
                             name.c_str());
  bool hostOnly = hostToDeviceBandwidth == 0 && deviceToHostBandwidth == 0;
  if (!hostOnly && !hasHostLink())
    return createStringError(inconvertibleErrorCode(),
                             "target '%s': host<->device bandwidths must be "
                             "both positive or both 0 (host-only)",
                             name.c_str());
  auto latency = [](double value) {
    return value >= 0 && std::isfinite(value);
  };
  if (!latency(ioLatencySeconds) || !latency(ssdReadLatency()) ||
      !latency(ssdWriteLatency()) || !latency(ssdReadQueuedLatency()) ||
      !latency(ssdWriteQueuedLatency()) || !latency(transferIssueSeconds))
    return createStringError(inconvertibleErrorCode(),
                             "target '%s': io latencies must be >= 0",
                             name.c_str());
  if (!latency(opOverheadSeconds))
    return createStringError(inconvertibleErrorCode(),
                             "target '%s': op_overhead_seconds must be >= 0",
                             name.c_str());
  double previousIdle = 0;
  for (const IdleLatencyPoint &point : ssdIdleLatency) {
    if (!(point.idleSeconds > previousIdle) ||
        !std::isfinite(point.idleSeconds) || !latency(point.extraSeconds))
      return createStringError(
          inconvertibleErrorCode(),
          "target '%s': ssd_idle_latency needs idle_seconds > 0 and "
          "increasing, extra_seconds >= 0",
          name.c_str());
    previousIdle = point.idleSeconds;
  }
  for (const OpTimeCurve &curve : opTimeTable) {
    std::string first = curve.ops.empty() ? "" : curve.ops.front();
    bool increasing = !curve.points.empty();
    for (size_t index = 0; index < curve.points.size(); ++index) {
      const OpTimeCurve::Point &point = curve.points[index];
      if (!(point.work >= 0) || !std::isfinite(point.work) ||
          !latency(point.seconds) ||
          (index && !(point.work > curve.points[index - 1].work)))
        increasing = false;
    }
    if (curve.ops.empty() || llvm::any_of(curve.ops, [](const std::string &op) {
          return op.empty();
        }))
      return createStringError(inconvertibleErrorCode(),
                               "target '%s': every op_time_table entry needs "
                               "a non-empty list of op names in 'ops'",
                               name.c_str());
    if (!increasing || curve.points.back().work <= 0)
      return createStringError(
          inconvertibleErrorCode(),
          "target '%s': op_time_table entry for '%s' needs points [work, "
          "seconds] of increasing work >= 0 (the last > 0) and seconds >= 0",
          name.c_str(), first.c_str());
  }
  return llvm::Error::success();
}

double Target::ssdIdlePenalty(double idleSeconds) const {
  IdleLatencyPoint previous;
  for (const IdleLatencyPoint &point : ssdIdleLatency) {
    if (idleSeconds < point.idleSeconds) {
      double fraction = (idleSeconds - previous.idleSeconds) /
                        (point.idleSeconds - previous.idleSeconds);
      return previous.extraSeconds +
             std::max(0.0, fraction) *
                 (point.extraSeconds - previous.extraSeconds);
    }
    previous = point;
  }
  return previous.extraSeconds;
}

double OpTimeCurve::secondsAt(double work) const {
  if (points.empty())
    return 0;
  if (work <= points.front().work)
    return points.front().seconds;
  for (size_t index = 1; index < points.size(); ++index) {
    const Point &low = points[index - 1], &high = points[index];
    if (work <= high.work)
      return low.seconds + (work - low.work) / (high.work - low.work) *
                               (high.seconds - low.seconds);
  }
  const Point &last = points.back();
  return last.seconds * work / last.work;
}

bool OpTimeCurve::names(llvm::StringRef opName) const {
  return llvm::any_of(ops, [&](const std::string &op) {
    return op != "*" && opName.starts_with(op) &&
           (opName.size() == op.size() || opName[op.size()] == '.');
  });
}

bool OpTimeCurve::isDefault() const { return llvm::is_contained(ops, "*"); }

const OpTimeCurve *Target::opTimeCurve(llvm::StringRef opName) const {
  for (const OpTimeCurve &curve : opTimeTable)
    if (curve.names(opName))
      return &curve;
  for (const OpTimeCurve &curve : opTimeTable)
    if (curve.isDefault())
      return &curve;
  return nullptr;
}

llvm::json::Value Target::toJSON() const {
  llvm::json::Object object{
      {"name", name},
      {"compute_flops", computeFlops},
      {"device_memory_bandwidth", deviceMemoryBandwidth},
      {"op_overhead_seconds", opOverheadSeconds},
      {"device_memory", static_cast<int64_t>(deviceMemoryBytes)},
      {"host_to_device_bandwidth", hostToDeviceBandwidth},
      {"device_to_host_bandwidth", deviceToHostBandwidth},
      {"ssd_read_bandwidth", ssdReadBandwidth},
      {"ssd_write_bandwidth", ssdWriteBandwidth},
      {"io_latency_seconds", ioLatencySeconds},
      {"transfer_issue_seconds", transferIssueSeconds},
      {"ssd_transfer_workers", static_cast<int64_t>(ssdTransferWorkers)},
  };
  if (ssdReadLatencySeconds)
    object["ssd_read_latency_seconds"] = *ssdReadLatencySeconds;
  if (ssdWriteLatencySeconds)
    object["ssd_write_latency_seconds"] = *ssdWriteLatencySeconds;
  if (ssdReadQueuedLatencySeconds)
    object["ssd_read_queued_latency_seconds"] = *ssdReadQueuedLatencySeconds;
  if (ssdWriteQueuedLatencySeconds)
    object["ssd_write_queued_latency_seconds"] = *ssdWriteQueuedLatencySeconds;
  if (!ssdIdleLatency.empty()) {
    llvm::json::Array curve;
    for (const IdleLatencyPoint &point : ssdIdleLatency)
      curve.push_back(
          llvm::json::Object{{"idle_seconds", point.idleSeconds},
                             {"extra_seconds", point.extraSeconds}});
    object["ssd_idle_latency"] = std::move(curve);
  }
  if (!opTimeTable.empty()) {
    llvm::json::Array table;
    for (const OpTimeCurve &curve : opTimeTable) {
      llvm::json::Array ops, points;
      for (const std::string &op : curve.ops)
        ops.push_back(op);
      for (const OpTimeCurve::Point &point : curve.points)
        points.push_back(llvm::json::Array{point.work, point.seconds});
      table.push_back(llvm::json::Object{
          {"ops", std::move(ops)},
          {"by", curve.by == OpTimeCurve::Work::Flops ? "flops" : "bytes"},
          {"points", std::move(points)}});
    }
    object["op_time_table"] = std::move(table);
  }
  return object;
}

std::vector<llvm::StringRef> ssd::planner::targetPresetNames() {
  std::vector<llvm::StringRef> names;
  for (const Preset &preset : kPresets)
    names.push_back(preset.name);
  return names;
}

llvm::Expected<Target> ssd::planner::getTargetPreset(llvm::StringRef name) {
  for (const Preset &preset : kPresets)
    if (preset.name == name)
      return preset.target();
  return createStringError(inconvertibleErrorCode(),
                           "unknown target '%s'; expected a JSON file or one "
                           "of: %s",
                           name.str().c_str(),
                           llvm::join(targetPresetNames(), ", ").c_str());
}

llvm::Expected<uint64_t> ssd::planner::parseMemorySize(llvm::StringRef text) {
  llvm::StringRef trimmed = text.trim();
  size_t numberEnd = trimmed.find_first_not_of("0123456789.eE+");
  llvm::StringRef number = trimmed.substr(0, numberEnd);
  llvm::StringRef suffix = trimmed.substr(number.size()).trim();
  static const std::pair<llvm::StringLiteral, double> kUnits[] = {
      {"", 1},          {"B", 1},
      {"KiB", 1024.0},  {"MiB", 1048576.0},
      {"GiB", kGiB},    {"TiB", kGiB * 1024.0},
      {"KB", 1e3},      {"kB", 1e3},
      {"MB", 1e6},      {"GB", 1e9},
      {"TB", 1e12},     {"K", 1024.0},
      {"M", 1048576.0}, {"G", kGiB}};
  double scale = 0;
  for (const auto &[unit, factor] : kUnits)
    if (suffix == unit)
      scale = factor;
  double value;
  if (number.empty() || scale == 0 || number.getAsDouble(value) || value < 0 ||
      !std::isfinite(value))
    return createStringError(inconvertibleErrorCode(),
                             "invalid memory size '%s'; expected e.g. "
                             "512MiB, 2GiB, 1.5GB or a number of bytes",
                             text.str().c_str());
  double bytes = std::floor(value * scale);
  if (bytes >= 18446744073709551615.0)
    return createStringError(inconvertibleErrorCode(),
                             "memory size '%s' is too large",
                             text.str().c_str());
  return static_cast<uint64_t>(bytes);
}

/// `[{"idle_seconds": s, "extra_seconds": s}, ...]`; `validate` checks the
/// values.
static llvm::Expected<std::vector<IdleLatencyPoint>>
parseIdleLatency(const llvm::json::Value &value) {
  auto malformed = [] {
    return createStringError(inconvertibleErrorCode(),
                             "target file: 'ssd_idle_latency' must be an "
                             "array of {\"idle_seconds\": number, "
                             "\"extra_seconds\": number}");
  };
  const llvm::json::Array *array = value.getAsArray();
  if (!array)
    return malformed();
  std::vector<IdleLatencyPoint> curve;
  for (const llvm::json::Value &element : *array) {
    const llvm::json::Object *object = element.getAsObject();
    if (!object || object->size() != 2)
      return malformed();
    std::optional<double> idle = object->getNumber("idle_seconds");
    std::optional<double> extra = object->getNumber("extra_seconds");
    if (!idle || !extra)
      return malformed();
    curve.push_back({*idle, *extra});
  }
  return curve;
}

/// `[{"ops": [names], "by": "flops"|"bytes", "points": [[work, seconds],
/// ...]}, ...]`; `validate` checks the values.
static llvm::Expected<std::vector<OpTimeCurve>>
parseOpTimeTable(const llvm::json::Value &value) {
  auto malformed = [](llvm::StringRef what) {
    return createStringError(
        inconvertibleErrorCode(),
        "target file: 'op_time_table' must be an array of {\"ops\": [op "
        "names], \"by\": \"flops\" or \"bytes\", \"points\": [[work, "
        "seconds], ...]}: %s",
        what.str().c_str());
  };
  const llvm::json::Array *array = value.getAsArray();
  if (!array)
    return malformed("not an array");
  std::vector<OpTimeCurve> table;
  for (const llvm::json::Value &element : *array) {
    const llvm::json::Object *object = element.getAsObject();
    if (!object)
      return malformed("an entry is not an object");
    for (const auto &[key, unused] : *object)
      if (key != "ops" && key != "by" && key != "points" &&
          key != "description")
        return malformed("unknown key '" + key.str() + "'");
    OpTimeCurve curve;
    const llvm::json::Array *ops = object->getArray("ops");
    if (!ops)
      return malformed("an entry has no 'ops' array");
    for (const llvm::json::Value &op : *ops) {
      std::optional<llvm::StringRef> opName = op.getAsString();
      if (!opName)
        return malformed("an op name is not a string");
      curve.ops.push_back(opName->str());
    }
    std::optional<llvm::StringRef> by = object->getString("by");
    if (by == "flops")
      curve.by = OpTimeCurve::Work::Flops;
    else if (by == "bytes")
      curve.by = OpTimeCurve::Work::Bytes;
    else
      return malformed("'by' must be \"flops\" or \"bytes\"");
    const llvm::json::Array *points = object->getArray("points");
    if (!points)
      return malformed("an entry has no 'points' array");
    for (const llvm::json::Value &point : *points) {
      const llvm::json::Array *pair = point.getAsArray();
      std::optional<double> work, seconds;
      if (pair && pair->size() == 2) {
        work = (*pair)[0].getAsNumber();
        seconds = (*pair)[1].getAsNumber();
      }
      if (!work || !seconds)
        return malformed("a point is not [work, seconds]");
      curve.points.push_back({*work, *seconds});
    }
    table.push_back(std::move(curve));
  }
  return table;
}

llvm::Expected<Target> ssd::planner::parseTargetJSON(llvm::StringRef text) {
  return applyTargetJSON(Target(), text);
}

llvm::Expected<Target> ssd::planner::applyTargetJSON(Target target,
                                                     llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return parsed.takeError();
  return applyParsedTargetJSON(std::move(target), *parsed);
}

llvm::Expected<Target>
ssd::planner::applyParsedTargetJSON(Target target,
                                    const llvm::json::Value &file) {
  const llvm::json::Object *object = file.getAsObject();
  if (!object)
    return createStringError(inconvertibleErrorCode(),
                             "target file: expected a JSON object");
  if (std::optional<llvm::StringRef> base = object->getString("base")) {
    llvm::Expected<Target> preset = getTargetPreset(*base);
    if (!preset)
      return preset.takeError();
    target = *preset;
  }
  if (std::optional<llvm::StringRef> name = object->getString("name"))
    target.name = name->str();
  struct Field {
    llvm::StringLiteral key;
    double *slot;
  };
  Field fields[] = {
      {"compute_flops", &target.computeFlops},
      {"device_memory_bandwidth", &target.deviceMemoryBandwidth},
      {"op_overhead_seconds", &target.opOverheadSeconds},
      {"host_to_device_bandwidth", &target.hostToDeviceBandwidth},
      {"device_to_host_bandwidth", &target.deviceToHostBandwidth},
      {"ssd_read_bandwidth", &target.ssdReadBandwidth},
      {"ssd_write_bandwidth", &target.ssdWriteBandwidth},
      {"io_latency_seconds", &target.ioLatencySeconds},
      {"transfer_issue_seconds", &target.transferIssueSeconds},
  };
  for (const auto &[key, value] : *object) {
    llvm::StringRef field = key;
    if (field == "name" || field == "base" || field == "description")
      continue;
    if (field == "device_memory") {
      if (std::optional<llvm::StringRef> size = value.getAsString()) {
        llvm::Expected<uint64_t> bytes = parseMemorySize(*size);
        if (!bytes)
          return bytes.takeError();
        target.deviceMemoryBytes = *bytes;
      } else if (std::optional<double> bytes = value.getAsNumber()) {
        target.deviceMemoryBytes = static_cast<uint64_t>(*bytes);
      } else {
        return createStringError(inconvertibleErrorCode(),
                                 "target file: 'device_memory' must be a "
                                 "number of bytes or a size string");
      }
      continue;
    }
    if (field == "ssd_transfer_workers") {
      std::optional<int64_t> count = value.getAsInteger();
      if (!count || *count < 0 || *count > 4096)
        return createStringError(inconvertibleErrorCode(),
                                 "target file: 'ssd_transfer_workers' must be "
                                 "an integer from 0 to 4096");
      target.ssdTransferWorkers = static_cast<unsigned>(*count);
      continue;
    }
    if (field == "op_time_table") {
      llvm::Expected<std::vector<OpTimeCurve>> table = parseOpTimeTable(value);
      if (!table)
        return table.takeError();
      target.opTimeTable = std::move(*table);
      continue;
    }
    if (field == "ssd_idle_latency") {
      llvm::Expected<std::vector<IdleLatencyPoint>> curve =
          parseIdleLatency(value);
      if (!curve)
        return curve.takeError();
      target.ssdIdleLatency = std::move(*curve);
      continue;
    }
    std::pair<llvm::StringLiteral, std::optional<double> *> optionals[] = {
        {"ssd_read_latency_seconds", &target.ssdReadLatencySeconds},
        {"ssd_write_latency_seconds", &target.ssdWriteLatencySeconds},
        {"ssd_read_queued_latency_seconds",
         &target.ssdReadQueuedLatencySeconds},
        {"ssd_write_queued_latency_seconds",
         &target.ssdWriteQueuedLatencySeconds},
    };
    auto optional = llvm::find_if(
        optionals, [&](const auto &entry) { return entry.first == field; });
    if (optional != std::end(optionals)) {
      std::optional<double> number = value.getAsNumber();
      if (!number)
        return createStringError(inconvertibleErrorCode(),
                                 "target file: '%s' must be a number",
                                 field.str().c_str());
      *optional->second = *number;
      continue;
    }
    Field *match = nullptr;
    for (Field &candidate : fields)
      if (candidate.key == field)
        match = &candidate;
    if (!match)
      return createStringError(inconvertibleErrorCode(),
                               "target file: unknown field '%s'",
                               field.str().c_str());
    std::optional<double> number = value.getAsNumber();
    if (!number)
      return createStringError(inconvertibleErrorCode(),
                               "target file: '%s' must be a number",
                               field.str().c_str());
    *match->slot = *number;
  }
  if (target.name.empty())
    target.name = "custom";
  if (llvm::Error error = target.validate())
    return std::move(error);
  return target;
}

llvm::Expected<Target> ssd::planner::loadTarget(llvm::StringRef spec) {
  if (!spec.ends_with(".json"))
    return getTargetPreset(spec);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(spec);
  if (!file)
    return createStringError(file.getError(), "cannot read target file '%s'",
                             spec.str().c_str());
  return parseTargetJSON((*file)->getBuffer());
}
