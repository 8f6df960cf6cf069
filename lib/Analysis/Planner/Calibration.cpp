//===- Calibration.cpp - Target latencies from timed transfers ------------===//

#include "ssd/Analysis/Planner/Calibration.h"

#include <algorithm>
#include <cassert>

using namespace ssd::planner;

double ssd::planner::fitLatency(llvm::ArrayRef<TimedTransfer> alone,
                                double bandwidth) {
  assert(!alone.empty() && bandwidth > 0);
  double sum = 0, smallest = alone.front().seconds;
  for (const TimedTransfer &transfer : alone) {
    sum += transfer.seconds - transfer.bytes / bandwidth;
    smallest = std::min(smallest, transfer.seconds);
  }
  double latency = sum / alone.size();
  return latency > 0 ? latency : smallest;
}

double ssd::planner::fitQueuedLatency(double latency, TimedTransfer first,
                                      double burstSeconds, unsigned perWorker,
                                      double bandwidth) {
  assert(perWorker >= 2 && bandwidth > 0);
  double moving = first.bytes / bandwidth;
  double queued = (burstSeconds - first.seconds) / (perWorker - 1) - moving;
  double alone = first.seconds - moving;
  return std::max(0.0, latency + queued - alone);
}

std::vector<IdleLatencyPoint>
ssd::planner::fitIdleCurve(llvm::ArrayRef<double> idleSeconds,
                           llvm::ArrayRef<double> writeSeconds,
                           llvm::ArrayRef<double> readSeconds) {
  assert(!idleSeconds.empty() && idleSeconds.front() == 0 &&
         writeSeconds.size() == idleSeconds.size() &&
         readSeconds.size() == idleSeconds.size());
  std::vector<IdleLatencyPoint> curve;
  double extra = 0;
  for (size_t index = 1; index < idleSeconds.size(); ++index) {
    double write = writeSeconds[index] - writeSeconds.front();
    double read = readSeconds[index] - readSeconds.front();
    extra = std::max(extra, (write + read) / 2);
    curve.push_back({idleSeconds[index], extra});
  }
  return curve;
}
