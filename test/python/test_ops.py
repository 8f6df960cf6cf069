"""Tests of the runtime ops torch.ops.ssdopt.* and ssdopt.runtime.

Round trips are compared bit for bit; the stores live in pytest's tmp_path.
The disk-full and read-only cases mount a small tmpfs and need root; the
write failure through RLIMIT_FSIZE runs anywhere.
"""

import contextlib
import errno
import importlib.metadata
import os
import resource
import signal
import subprocess
import sys
import threading

import pytest
import torch

import ssdopt._ops  # noqa: F401  (registers the ops)
from ssdopt import runtime

ops = torch.ops.ssdopt


@pytest.fixture
def store(tmp_path):
    s = runtime.open_store(str(tmp_path))
    yield s
    runtime.close_store(s)


def bits(t: torch.Tensor) -> torch.Tensor:
    """The tensor's elements as raw bytes, in logical order."""
    return t.reshape(-1).contiguous().view(torch.uint8)


def random_tensor(shape, dtype) -> torch.Tensor:
    """Random bit patterns (NaNs and all), or 0/1 for bool."""
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    count = torch.Size(shape).numel() * dtype.itemsize
    raw = torch.randint(0, 256, (count,), dtype=torch.uint8)
    return raw.view(dtype).reshape(shape)


def round_trip(x: torch.Tensor, store: int) -> torch.Tensor:
    handle = ops.offload(x, store)
    ticket = ops.prefetch(handle)
    return ops.wait(ticket, x.shape, x.stride(), x.dtype, x.device)


def assert_same(y: torch.Tensor, x: torch.Tensor):
    assert not y._is_view()
    assert y.shape == x.shape and y.stride() == x.stride()
    assert y.dtype == x.dtype and y.device == x.device
    assert torch.equal(bits(y), bits(x))


DTYPES = [
    torch.float32, torch.float64, torch.float16, torch.bfloat16,
    torch.float8_e4m3fn, torch.float8_e5m2, torch.complex64,
    torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64,
    torch.uint16, torch.bool,
]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(), (0,), (1,), (7,), (3, 5), (2, 3, 4),
                                   (0, 4), (513, 1031)], ids=str)
def test_round_trip_is_bitwise(store, dtype, shape):
    x = random_tensor(shape, dtype)
    assert_same(round_trip(x, store), x)


VIEWS = {
    "transposed": lambda b: b.t(),
    "sliced rows": lambda b: b[3:40],
    "sliced columns": lambda b: b[:, 5:50],
    "strided": lambda b: b[::3, ::2],
    "transposed slice": lambda b: b.t()[10:20, ::4],
    "permuted 3d": lambda b: b.reshape(20, 20, 24).permute(2, 0, 1),
    "channels last": lambda b: b.reshape(4, 5, 20, 24).contiguous(
        memory_format=torch.channels_last),
    "expanded": lambda b: b[0, :7].expand(5, 7),
    "expanded with gaps": lambda b: b[:4, :3].unsqueeze(1).expand(4, 6, 3),
    "offset into storage": lambda b: b.view(-1)[1001:1301].view(20, 15),
}


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.int64])
@pytest.mark.parametrize("view", VIEWS, ids=str)
def test_views_keep_sizes_and_strides(store, view, dtype):
    x = VIEWS[view](random_tensor((120, 80), dtype))
    assert_same(round_trip(x, store), x)


def test_offload_drops_its_reference_once_written(store):
    x = torch.randn(1 << 16)
    before = x._use_count()
    handle = ops.offload(x, store)
    ticket = ops.prefetch(handle)  # waits for the write
    assert x._use_count() == before
    y = ops.wait(ticket, x.shape, x.stride(), x.dtype, x.device)
    assert torch.equal(y, x)


def test_source_may_be_freed_and_overwritten_after_offload(store):
    x = torch.arange(1 << 16, dtype=torch.float32)
    expected = x.clone()
    handle = ops.offload(x, store)
    del x
    junk = [torch.full((1 << 16,), -1.0) for _ in range(8)]
    y = ops.wait(ops.prefetch(handle), expected.shape, expected.stride(),
                 expected.dtype, expected.device)
    assert torch.equal(y, expected) and junk


def test_ops_trace_and_run_under_torch_compile(store):
    def step(x, w):
        h = torch.relu(x @ w)
        handle = ops.offload(h, store)
        out = (h * 2).sum()
        ticket = ops.prefetch(handle)
        back = ops.wait(ticket, h.shape, h.stride(), h.dtype, h.device)
        return out + back.sum(), back

    x, w = torch.randn(16, 32), torch.randn(32, 8)
    compiled = torch.compile(step, backend="aot_eager", fullgraph=True)
    runtime.reset_stats()
    got, back = compiled(x, w)
    want, want_back = step(x, w)
    assert torch.equal(got, want) and torch.equal(back, want_back)
    stats = runtime.stats()
    assert stats["offloads"] == 2 and stats["reloads"] == 2


def test_fake_implementations_give_shapes_strides_and_devices():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(4, 6).t()
        handle = ops.offload(x, 1)
        ticket = ops.prefetch(handle)
        y = ops.wait(ticket, x.shape, x.stride(), x.dtype, torch.device("cuda"))
    assert handle.shape == () and handle.dtype == torch.int64
    assert ticket.shape == () and ticket.device.type == "cpu"
    assert y.shape == (6, 4) and y.stride() == (1, 6)
    assert y.device.type == "cuda"


@pytest.mark.parametrize("check", ["test_schema", "test_faketensor",
                                   "test_autograd_registration"])
def test_opcheck(store, check):
    x = torch.randn(8, 6).t()
    torch.library.opcheck(ops.offload.default, (x, store), test_utils=check)
    torch.library.opcheck(ops.prefetch.default, (ops.offload(x, store),),
                          test_utils=check)
    ticket = ops.prefetch(ops.offload(x, store))
    torch.library.opcheck(ops.wait.default,
                          (ticket, x.shape, x.stride(), x.dtype, x.device),
                          test_utils=check)


def test_counters(store):
    runtime.reset_stats()
    xs = [torch.randn(100, 10), torch.randn(33, dtype=torch.float64),
          torch.randint(0, 9, (5, 5))]
    handles = [ops.offload(x, store) for x in xs]
    assert runtime.stats()["live_handles"] == 3
    tickets = [ops.prefetch(h) for h in handles]
    for x, t in zip(xs, tickets):
        ops.wait(t, x.shape, x.stride(), x.dtype, x.device)
    stats = runtime.stats()
    total = sum(x.numel() * x.element_size() for x in xs)
    assert stats["bytes_written"] == total and stats["bytes_read"] == total
    assert stats["offloads"] == 3 and stats["reloads"] == 3
    assert stats["live_handles"] == 0 and stats["failures"] == 0
    assert stats["stall_seconds"] >= 0 and stats["open_stores"] >= 1
    runtime.reset_stats()
    assert runtime.stats()["bytes_written"] == 0


def test_data_file_exists_only_while_a_handle_is_live(store, tmp_path):
    x, z = torch.randn(1000), torch.randn(10)
    assert os.listdir(tmp_path) == []
    first = ops.offload(x, store)
    second = ops.offload(z, store)
    # The store's own directory, with its lock and one data file.
    files = os.listdir(tmp_path)
    assert len(files) == 1 and files[0].startswith("ssdopt-store-")
    owned = sorted(os.listdir(tmp_path / files[0]))
    assert len(owned) == 2 and owned[0] == "owner.lock" and owned[1].endswith(".data")
    ops.wait(ops.prefetch(first), x.shape, x.stride(), x.dtype, x.device)
    assert os.listdir(tmp_path) == files  # the second handle is still live
    ops.discard(second)
    assert os.listdir(tmp_path) == []
    # The next offload opens a new file.
    ops.wait(ops.prefetch(ops.offload(x, store)), x.shape, x.stride(), x.dtype,
             x.device)
    assert os.listdir(tmp_path) == []


def test_close_store_removes_the_files_and_invalidates_handles(tmp_path):
    s = runtime.open_store(str(tmp_path))
    x = torch.randn(64)
    handle = ops.offload(x, s)
    ticket = ops.prefetch(ops.offload(x, s))
    runtime.close_store(s)
    assert os.listdir(tmp_path) == []
    with pytest.raises(RuntimeError, match="unknown handle"):
        ops.prefetch(handle)
    with pytest.raises(RuntimeError, match="unknown handle"):
        ops.wait(ticket, x.shape, x.stride(), x.dtype, x.device)
    with pytest.raises(RuntimeError, match="not open"):
        ops.offload(x, s)
    with pytest.raises(RuntimeError, match="not open"):
        runtime.close_store(s)


def test_files_are_removed_at_interpreter_exit(tmp_path):
    code = (
        "import torch, ssdopt._ops\n"
        "from ssdopt import runtime\n"
        f"s = runtime.open_store({str(tmp_path)!r})\n"
        "h = torch.ops.ssdopt.offload(torch.randn(1000), s)\n"
        "import os; assert os.listdir(" + repr(str(tmp_path)) + ")\n"
    )
    env = dict(os.environ, SSDRT_LOG="off")
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    assert os.listdir(tmp_path) == []


def test_opening_a_store_removes_a_killed_process_files_never_a_live_ones(tmp_path):
    # A process that opens a store, reserves space and offloads, then is
    # SIGKILLed.
    code = (
        "import sys, torch, ssdopt._ops\n"
        "from ssdopt import runtime\n"
        f"s = runtime.open_store({str(tmp_path)!r})\n"
        "runtime.reserve(s, {-1: [1 << 20]})\n"
        "h = torch.ops.ssdopt.offload(torch.randn(1000), s)\n"
        "print('ready', flush=True)\n"
        "sys.stdin.readline()\n"
    )
    killed = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env=dict(os.environ, SSDRT_LOG="off"))
    assert killed.stdout.readline().strip() == "ready"
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    [dead] = os.listdir(tmp_path)  # its data file, with the space reserved
    assert any(name.endswith(".data") for name in os.listdir(tmp_path / dead))
    # A live store (this process's: its lock is held on another open file,
    # as another process's would be).
    live = runtime.open_store(str(tmp_path))
    assert os.listdir(tmp_path) == []  # its opening swept the dead one
    x = torch.randn(1000)
    handle = ops.offload(x, live)
    [kept] = os.listdir(tmp_path)
    other = runtime.open_store(str(tmp_path))
    assert os.listdir(tmp_path) == [kept]
    assert torch.equal(ops.wait(ops.prefetch(handle), x.shape, x.stride(), x.dtype, x.device), x)
    runtime.close_store(other)
    runtime.close_store(live)
    assert os.listdir(tmp_path) == []


def test_wait_takes_other_strides_on_size_one_dimensions(store):
    # Inductor sets those freely: a 1x1 convolution's weight gradient.
    x = torch.randn(576, 96).as_strided((576, 96, 1, 1), (96, 1, 96, 96))
    y = ops.wait(ops.prefetch(ops.offload(x, store)), x.shape, (96, 1, 1, 1), x.dtype, x.device)
    assert torch.equal(y, x) and y.stride() == (96, 1, 1, 1)
    with pytest.raises(RuntimeError, match="but the call expects"):
        ops.wait(ops.prefetch(ops.offload(x, store)), x.shape, (1, 576, 1, 1), x.dtype, x.device)


def test_discard_drops_a_handle_in_any_phase(store, tmp_path):
    x = torch.randn(1 << 16)
    written, reading = ops.offload(x, store), ops.offload(x, store)
    ops.prefetch(reading)
    ops.discard(written)
    ops.discard(reading)
    assert runtime.stats()["live_handles"] == 0
    assert os.listdir(tmp_path) == []
    with pytest.raises(RuntimeError, match="unknown handle"):
        ops.prefetch(written)


def test_misuse_is_reported(store):
    x = torch.randn(3, 4)
    handle = ops.offload(x, store)
    with pytest.raises(RuntimeError, match="no prefetch was issued"):
        ops.wait(handle, x.shape, x.stride(), x.dtype, x.device)
    ticket = ops.prefetch(handle)
    with pytest.raises(RuntimeError, match="already prefetched"):
        ops.prefetch(handle)
    with pytest.raises(RuntimeError, match="expects"):
        ops.wait(ticket, (4, 3), (3, 1), x.dtype, x.device)
    with pytest.raises(RuntimeError, match="0-d int64"):
        ops.prefetch(torch.tensor([1, 2]))
    y = ops.wait(ticket, x.shape, x.stride(), x.dtype, x.device)
    assert torch.equal(y, x)
    with pytest.raises(RuntimeError, match="unknown handle"):
        ops.wait(ticket, x.shape, x.stride(), x.dtype, x.device)
    with pytest.raises(RuntimeError, match="not open"):
        ops.offload(x, 10**9)


def test_bad_directories(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing"):
        runtime.open_store(str(tmp_path / "missing"))
    (tmp_path / "file").write_text("")
    with pytest.raises(NotADirectoryError, match="file"):
        runtime.open_store(str(tmp_path / "file"))


@contextlib.contextmanager
def tmpfs(path, options):
    path.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs",
                            str(path)], capture_output=True, text=True)
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {mount.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


def test_read_only_directory(tmp_path):
    with tmpfs(tmp_path / "ro", "ro,size=1M") as path:
        with pytest.raises(OSError, match="not writable") as error:
            runtime.open_store(str(path))
        assert error.value.errno == errno.EROFS


def test_not_writable_directory_without_root(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root may write anywhere; the read-only mount covers it")
    path = tmp_path / "locked"
    path.mkdir(mode=0o500)
    with pytest.raises(PermissionError, match="not writable"):
        runtime.open_store(str(path))


def test_disk_full_raises_at_prefetch_and_the_store_recovers(tmp_path):
    with tmpfs(tmp_path / "small", "size=1M") as path:
        s = runtime.open_store(str(path))
        try:
            runtime.reset_stats()
            x = torch.randn(1 << 20)  # 4 MiB
            handle = ops.offload(x, s)
            with pytest.raises(RuntimeError) as error:
                ops.prefetch(handle)
            message = str(error.value)
            assert "No space left on device" in message, message
            assert str(path) in message and "offset" in message
            assert runtime.stats()["failures"] == 1
            assert runtime.stats()["live_handles"] == 0
            assert os.listdir(path) == []
            small = torch.randn(1000)
            assert_same(round_trip(small, s), small)
        finally:
            runtime.close_store(s)


@contextlib.contextmanager
def file_size_limit(limit):
    """RLIMIT_FSIZE for this process, with SIGXFSZ ignored so writes past it
    fail with EFBIG."""
    old_limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    old_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, old_limit[1]))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, old_limit)
        signal.signal(signal.SIGXFSZ, old_handler)


def test_write_failure_surfaces_at_wait_without_prefetch(store, tmp_path):
    x = torch.randn(1 << 18)  # 1 MiB
    with file_size_limit(64 << 10):
        handle = ops.offload(x, store)
        with pytest.raises(RuntimeError, match="File too large") as error:
            ops.wait(handle, x.shape, x.stride(), x.dtype, x.device)
    assert str(tmp_path) in str(error.value)
    assert os.listdir(tmp_path) == []
    with pytest.raises(RuntimeError, match="unknown handle"):
        ops.prefetch(handle)


def test_threads_share_a_store(store, tmp_path):
    failures = []

    def worker(seed):
        generator = torch.Generator().manual_seed(seed)
        try:
            for i in range(25):
                shape = (int(torch.randint(1, 300, (1,), generator=generator)), 7)
                x = torch.randn(shape, generator=generator)
                if i % 3 == 0:
                    x = x.t()
                held = [(x, ops.offload(x, store))]
                held.append((x * 2, ops.offload(x * 2, store)))
                for value, handle in held:
                    y = ops.wait(ops.prefetch(handle), value.shape,
                                 value.stride(), value.dtype, value.device)
                    assert torch.equal(y, value)
        except Exception as e:  # reported below, with the thread's seed
            failures.append((seed, e))

    threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hangs"
    assert failures == []
    assert runtime.stats()["live_handles"] == 0
    assert os.listdir(tmp_path) == []


def test_close_store_while_threads_use_it(tmp_path):
    s = runtime.open_store(str(tmp_path))
    unexpected = []

    def worker():
        x = torch.randn(1 << 14)
        try:
            while True:
                y = round_trip(x, s)
                assert torch.equal(y, x)
        except RuntimeError as e:
            if not any(why in str(e) for why in
                       ("is closed", "not open", "unknown handle")):
                unexpected.append(e)
        except Exception as e:  # reported below
            unexpected.append(e)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    threading.Event().wait(0.3)
    runtime.close_store(s)
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a thread hangs"
    assert unexpected == []
    assert os.listdir(tmp_path) == []


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
@pytest.mark.parametrize("view", ["contiguous", "transposed", "sliced columns"])
def test_cuda_round_trip(store, view):
    base = random_tensor((120, 80), torch.float32).cuda()
    x = {"contiguous": base, "transposed": base.t(),
         "sliced columns": base[:, 5:50]}[view]
    handle = ops.offload(x, store)
    y = ops.wait(ops.prefetch(handle), x.shape, x.stride(), x.dtype, x.device)
    assert_same(y, x)


def test_dynamo_backend_entry_point_is_published():
    names = {e.name: e.value for e in
             importlib.metadata.entry_points(group="torch_dynamo_backends")}
    assert names.get("ssd") == "ssdopt.dynamo_backend:ssd_backend"
