//===- TimingTest.cpp - Tests of the timing helpers and the session -------===//
//
// Summaries on hand-made samples, the busy-wait, runtime errors as they
// reach the replay (a real failing call, and a status without a message),
// and the runtime session's checks before any work.
//
//===----------------------------------------------------------------------===//

#include "ReplayTestUtil.h"

#include "ssd/Replay/RuntimeSession.h"
#include "ssd/Replay/Timing.h"

#include <cerrno>
#include <thread>

using namespace ssd::replay;
using ssd::replay::testing::ScratchDir;

namespace {

TEST(Timing, SummaryTakesRanksOfTheSortedSamples) {
  Summary summary = summarize({9, 0, 8, 1, 7, 2, 6, 3, 5, 4});
  EXPECT_DOUBLE_EQ(summary.mean, 4.5);
  EXPECT_DOUBLE_EQ(summary.median, 5);
  EXPECT_DOUBLE_EQ(summary.p10, 1);
  EXPECT_DOUBLE_EQ(summary.p90, 9);
  Summary empty = summarize({});
  EXPECT_EQ(empty.mean, 0);
  EXPECT_EQ(empty.p90, 0);
  EXPECT_EQ(mean({}), 0);
}

TEST(Timing, SpinHoldsAtLeastItsTime) {
  Clock::time_point start = Clock::now();
  spinFor(0.02);
  EXPECT_GE(secondsSince(start), 0.02);
}

TEST(Timing, CheckCarriesTheRuntimeMessage) {
  ScratchDir dir;
  auto session = RuntimeSession::open(dir.str());
  ASSERT_TRUE(bool(session)) << llvm::toString(session.takeError());
  // A handle the context never made: the runtime refuses it and says why.
  int status = ssdrt_handle_wait((*session)->context(), 12345);
  ASSERT_LT(status, 0);
  std::string message = llvm::toString(check(status, "waiting"));
  EXPECT_EQ(message, std::string("waiting failed: ") + ssdrt_last_error());
  EXPECT_FALSE(check(0, "nothing"));
}

TEST(Timing, CheckNamesTheErrnoWhenTheRuntimeLeftNoMessage) {
  // The runtime's message is per thread: a fresh thread has none.
  std::string message;
  std::thread([&] {
    message = llvm::toString(check(-ENOSPC, "writing"));
  }).join();
  EXPECT_EQ(message, "writing failed: No space left on device");
}

TEST(Timing, TimedTransferStopsAtTheCallThatFails) {
  bool finished = false;
  std::string message;
  // A fresh thread, whose runtime message is empty: the errno names it.
  std::thread([&] {
    llvm::Expected<double> failed = timeTransfer([] { return -EIO; },
                                                 [&] {
                                                   finished = true;
                                                   return 0;
                                                 },
                                                 "starting");
    message = failed ? "succeeded" : llvm::toString(failed.takeError());
  }).join();
  EXPECT_EQ(message, "starting failed: Input/output error");
  EXPECT_FALSE(finished);

  double issue = -1;
  llvm::Expected<double> timed = timeTransfer(
      [] {
        spinFor(0.005);
        return 0;
      },
      [] {
        spinFor(0.005);
        return 0;
      },
      "a transfer", &issue);
  ASSERT_TRUE(bool(timed)) << llvm::toString(timed.takeError());
  EXPECT_GE(issue, 0.005);
  EXPECT_GE(*timed, issue + 0.005);
}

TEST(Timing, ForEachHandleStopsAtTheFirstFailure) {
  std::vector<ssdrt_handle> called;
  const ssdrt_handle handles[] = {1, 2, 3};
  int status = forEachHandle(handles, [&](ssdrt_handle h) {
    called.push_back(h);
    return h == 2 ? -EAGAIN : 0;
  });
  EXPECT_EQ(status, -EAGAIN);
  EXPECT_EQ(called, (std::vector<ssdrt_handle>{1, 2}));
}

TEST(RuntimeSession, ExtentsAreWholeBlocks) {
  EXPECT_EQ(extentBytes(0), 4096u);
  EXPECT_EQ(extentBytes(1), 4096u);
  EXPECT_EQ(extentBytes(4096), 4096u);
  EXPECT_EQ(extentBytes(4097), 8192u);
}

TEST(RuntimeSession, MissingDirectoryIsRefusedBeforeTheRuntime) {
  ScratchDir dir;
  std::string missing = (dir.str() + "/missing").str();
  auto session = RuntimeSession::open(missing);
  ASSERT_FALSE(bool(session));
  EXPECT_EQ(llvm::toString(session.takeError()),
            "scratch directory '" + missing + "' does not exist");
  EXPECT_FALSE(llvm::sys::fs::exists(missing));
}

TEST(RuntimeSession, FreeSpaceIsCheckedAgainstTheFilesystem) {
  ScratchDir dir;
  EXPECT_FALSE(checkFreeSpace(dir.str(), 4096, "the test"));
  llvm::Error error = checkFreeSpace(dir.str(), 1ull << 50, "the test");
  ASSERT_TRUE(bool(error));
  std::string message = llvm::toString(std::move(error));
  EXPECT_NE(message.find("bytes available; the test needs 1125899906842624"),
            std::string::npos)
      << message;
}

TEST(RuntimeSession, HandlesLiveInTheCallersMemoryOrTheRuntimes) {
  ScratchDir dir;
  auto session = RuntimeSession::open(dir.str());
  ASSERT_TRUE(bool(session)) << llvm::toString(session.takeError());
  EXPECT_EQ((*session)->workers(), RuntimeSession::defaultWorkers());
  EXPECT_EQ((*session)->directory(), dir.str());
  alignas(4096) static char memory[8192];
  auto own = (*session)->createHandle(5000, memory);
  ASSERT_TRUE(bool(own)) << llvm::toString(own.takeError());
  void *data = nullptr;
  uint64_t bytes = 0;
  ASSERT_EQ(ssdrt_handle_data((*session)->context(), *own, &data), 0);
  ASSERT_EQ(ssdrt_handle_bytes((*session)->context(), *own, &bytes), 0);
  EXPECT_EQ(data, memory);
  EXPECT_EQ(bytes, 5000u);
  auto runtimes = (*session)->createHandle(100);
  ASSERT_TRUE(bool(runtimes)) << llvm::toString(runtimes.takeError());
  ASSERT_EQ(ssdrt_handle_data((*session)->context(), *runtimes, &data), 0);
  EXPECT_NE(data, nullptr);
}

} // namespace
