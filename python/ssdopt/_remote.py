"""Checkpoint roots in an object store: fsspec URLs such as ``s3://bucket/run``
(docs/checkpoint-python.md, "Remote roots").

A remote root holds the same layout as a local one (docs/checkpoint-format.md):
``latest``, ``step-…/manifest.json``, ``step-…/rank-….data``, committed iff
the manifest is there. Nothing of the format is restated here; the library
decides everything through local stand-ins:

- **Shadow roots.** A listing of the remote root becomes a local directory of
  empty files of the objects' sizes (and the real ``latest``), on which the
  library's own ``ssdckpt_latest``, ``ssdckpt_list``, ``ssdckpt_begin`` and
  ``ssdckpt_gc`` run; what they remove from the shadow is then removed
  remotely, manifests first.
- **Sparse copies.** A remote step is read through a local directory holding
  its real manifest and, for each data file, a sparse file of the recorded
  size into which only the byte ranges the library plans for a load
  (``ssdckpt_reader_plan``) are fetched (range reads); the library then loads
  from it and verifies every block's XXH3 as usual.

A save needs no file system shared by the ranks (they may be on several
nodes): each rank writes its data file in a local cache of its own
(``ssdckpt_save_begin_record``), uploads it and verifies the object (its size,
and the MD5 of the bytes sent against the store's ETag, or a read-back where
the store has no content checksum), then hands its record over through the
store; rank 0 assembles the manifest from every rank's record with the
library (``ssdckpt_assemble_manifest``), uploads it (the remote commit), reads
it back and validates it, and only then moves the remote ``latest``
(``Remote.publish``).
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import errno as errno_module
import hashlib
import json
import os
import shutil
import tempfile
import threading
import time

from . import checkpoint as _ckpt
from .checkpoint import CheckpointError

CACHE_ENV = "SSDOPT_CHECKPOINT_CACHE"
# Bytes fetched by one batch of range reads (held in memory at once), and
# the most one range read of an object read back whole asks for.
FETCH_BATCH_BYTES = 256 << 20
READ_RANGE_BYTES = 8 << 20
# The part size of multipart uploads to S3 (a file of fewer than two parts
# goes in one PUT): the ETag the server returns is computed over these parts.
UPLOAD_PART_BYTES = 64 << 20


_fetched = 0
_fetched_lock = threading.Lock()


def fetched_bytes() -> int:
    """Bytes this process has fetched from remote data files by range reads
    (the loads' and verifications' planned ranges)."""
    return _fetched


def is_remote(path) -> bool:
    """Whether `path` is a URL of another file system than the local one."""
    if not isinstance(path, str) or "://" not in path:
        return False
    return path.split("://", 1)[0] not in ("file", "local")


# ---------------------------------------------------------------------------
# The library's functions of this layer (bound here, so that an older
# library only fails remote use)
# ---------------------------------------------------------------------------

_bound = False
_bind_lock = threading.Lock()


def _lib():
    global _bound
    lib = _ckpt._library()
    with _bind_lock:
        if not _bound:
            c = ctypes
            _ckpt.bind(lib, {
                "ssdckpt_begin": (c.c_int, [c.c_char_p, c.c_uint64, c.c_char_p, c.c_size_t]),
                "ssdckpt_reader_plan": (c.c_int, [c.c_void_p, c.POINTER(_ckpt._Request),
                                                  c.c_size_t, c.POINTER(c.c_void_p)]),
                "ssdckpt_reader_plan_verify": (c.c_int, [c.c_void_p, c.c_char_p,
                                                         c.POINTER(c.c_void_p)]),
                "ssdckpt_assemble_manifest": (c.c_int, [c.c_char_p, c.POINTER(c.c_char_p),
                                                        c.c_uint32, c.POINTER(c.c_void_p)]),
            })
            _bound = True
    return lib


def _json_text(call) -> str:
    """Runs `call(pointer)` (a function filling a char ** with text)."""
    text = ctypes.c_void_p()
    call(ctypes.byref(text))
    return _ckpt._taken_text(text)


def _json_out(call) -> dict | list:
    """`_json_text` of `call`, parsed as JSON."""
    return json.loads(_json_text(call))


# ---------------------------------------------------------------------------
# The remote root
# ---------------------------------------------------------------------------

def _filesystem(url: str, storage_options: dict | None):
    try:
        import fsspec
    except ImportError:  # pragma: no cover - fsspec comes with torch
        raise CheckpointError(f"{url}: remote checkpoints need fsspec (pip install fsspec "
                              "s3fs)", errno_module.EPROTONOSUPPORT) from None
    try:
        fs, path = fsspec.core.url_to_fs(url, **(storage_options or {}))
    except (ImportError, ValueError) as error:
        scheme = url.split("://", 1)[0]
        raise CheckpointError(f"checkpoint path {url!r}: {scheme}:// is not supported "
                              f"({error})", errno_module.EPROTONOSUPPORT) from None
    return fs, path.rstrip("/")


def _cause(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return f"{type(error).__name__}: {text}" if type(error).__name__ not in text else text


class _RetentionFailed(CheckpointError):
    """A step was published (the remote `latest` names it), but the retention
    after it failed."""


class Remote:
    """A remote checkpoint root (or step directory) and its local cache."""

    def __init__(self, url: str, storage_options: dict | None = None):
        self.url = url.rstrip("/")
        self.fs, self.path = _filesystem(self.url, storage_options)
        base = os.environ.get(CACHE_ENV) or os.path.join(tempfile.gettempdir(),
                                                          "ssdopt-checkpoint-cache")
        digest = hashlib.sha256(self.url.encode()).hexdigest()[:16]
        # Each rank writes in a directory of its own under it (rank_cache).
        self.cache = os.path.join(base, digest)

    # -- names --------------------------------------------------------------

    def remote(self, relative: str) -> str:
        return f"{self.path}/{relative}" if relative else self.path

    def url_of(self, relative: str) -> str:
        return f"{self.url}/{relative}" if relative else self.url

    def _rename(self, text: str, local: str, relative: str = "") -> str:
        """A library message about `local` (a stand-in), about the URL instead."""
        return text.replace(local.rstrip("/"), self.url_of(relative))

    def _call(self, what: str, function, *args):
        try:
            return function(*args)
        except CheckpointError:
            raise
        except FileNotFoundError as error:
            raise CheckpointError(f"{what}: {_cause(error)}", errno_module.ENOENT) from error
        except Exception as error:  # noqa: BLE001 - every store error, named
            raise CheckpointError(f"{what}: {_cause(error)}", errno_module.EIO) from error

    # -- listing: the shadow root ------------------------------------------

    def objects(self, under: str = "") -> dict[str, int]:
        """relative name -> size of every object below (one recursive listing)."""
        base = self.remote(under)
        self.fs.invalidate_cache(base)
        found = self._call(f"listing {self.url_of(under)}",
                           lambda: self.fs.find(base, withdirs=False, detail=True))
        out = {}
        for key, info in found.items():
            if info.get("type", "file") != "file" or not key.startswith(base + "/"):
                continue
            out[key[len(base) + 1:]] = int(info.get("size") or 0)
        return out

    def shadow(self, where: str) -> dict[str, int]:
        """Lays out the remote root in the empty directory `where` as files of
        the objects' sizes (holes), `latest` with its real content; returns
        the objects it laid out."""
        objects = self.objects()
        laid = {}
        for name, size in objects.items():
            parts = name.split("/")
            # Only what the layout can name: ROOT/latest and ROOT/DIR/FILE.
            if any(p in ("", ".", "..") or p.startswith(".") for p in parts) or len(parts) > 2:
                continue
            if len(parts) == 1 and parts[0] != "latest":
                continue
            target = os.path.join(where, *parts)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if parts == ["latest"]:
                if size > 4096:
                    raise CheckpointError(f"{self.url_of('latest')} has {size} bytes, not a "
                                          "checkpoint name", errno_module.EINVAL)
                data = self._call(f"reading {self.url_of('latest')}", self.fs.cat_file,
                                  self.remote("latest"))
                with open(target, "wb") as out:
                    out.write(data)
            else:
                with open(target, "wb") as out:
                    out.truncate(size)
            laid[name] = size
        return laid

    def _with_shadow(self, body):
        with tempfile.TemporaryDirectory(prefix="ssdopt-shadow-") as where:
            root = os.path.join(where, "root")
            os.mkdir(root)
            laid = self.shadow(root)
            try:
                return body(root, laid)
            except CheckpointError as error:
                raise CheckpointError(self._rename(str(error), root), error.errno) from None

    def latest_name(self) -> str | None:
        """The directory the remote `latest` names when committed (the
        library's readLatest on the shadow), None without a pointer."""
        def body(root, laid):
            if "latest" not in laid:
                return None
            buffer = ctypes.create_string_buffer(4096)
            _ckpt._check(_lib().ssdckpt_latest(root.encode(), buffer, len(buffer)), "")
            return os.path.basename(buffer.value.decode())
        return self._with_shadow(body)

    def listing(self) -> list[dict]:
        def body(root, laid):
            return _json_out(lambda out: _ckpt._check(_lib().ssdckpt_list(root.encode(), out),
                                                      ""))
        return self._with_shadow(body)

    def _apply_removals(self, before: dict[str, int], root: str) -> list[str]:
        """Removes remotely the objects the library removed from the shadow,
        each directory's manifest before anything else of it."""
        gone = [name for name in before if not os.path.lexists(os.path.join(root, name))]
        manifests = [n for n in gone if n.endswith("/manifest.json")]
        rest = [n for n in gone if n not in manifests]
        for group in (manifests, rest):
            if group:
                self._call(f"removing {', '.join(self.url_of(n) for n in group)}",
                           self.fs.rm, [self.remote(n) for n in group])
        return sorted({n.split("/")[0] for n in gone if "/" in n})

    def collect_garbage(self, keep: int) -> list[str]:
        """The library's retention on the shadow, applied remotely; returns
        the directories removed."""
        def body(root, laid):
            _ckpt._check(_lib().ssdckpt_gc(root.encode(), keep), "")
            return self._apply_removals(laid, root)
        return self._with_shadow(body)

    def begin(self, step: int, apply: bool) -> None:
        """The library's beginCheckpoint on the shadow: refuses (EEXIST) a
        step `latest` names or has passed; with `apply`, removes remotely
        what it removes (an uncommitted leftover of the step, or a committed
        one nothing points at: manifest first)."""
        def body(root, laid):
            buffer = ctypes.create_string_buffer(4096)
            _ckpt._check(_lib().ssdckpt_begin(root.encode(), step, buffer, len(buffer)),
                         f"beginning step {step} under {self.url}")
            if apply:
                self._apply_removals(laid, root)
        self._with_shadow(body)

    # -- reading: sparse copies --------------------------------------------

    def open_reader(self, step_dir: str) -> "RemoteReader":
        """A reader of the committed remote step directory `step_dir`
        (relative to this URL: "step-…", or "" when the URL is the step)."""
        return RemoteReader(self, step_dir)

    def resolve(self) -> str:
        """The step directory (relative) this URL stands for: the one its
        `latest` names when it is a root, else the URL itself when it holds a
        manifest."""
        name = self.latest_name()
        if name is not None:
            return name
        objects = self.objects()
        if "manifest.json" in objects:
            return ""
        if not objects:
            raise CheckpointError(f"checkpoint path {self.url!r} does not exist",
                                  errno_module.ENOENT)
        raise CheckpointError(f"{self.url!r} holds no committed checkpoint: it has no `latest` "
                              "and no manifest.json", errno_module.ENOENT)

    # -- saving --------------------------------------------------------------

    def latest_step(self) -> int | None:
        """The step of the committed checkpoint the remote `latest` names
        (its manifest read and validated by the library), or None."""
        name = self.latest_name()
        if name is None:
            return None
        with self.open_reader(name) as reader:
            return reader.info()["step"]

    def rank_cache(self, rank: int) -> str:
        """Rank `rank`'s own local cache: it writes its data file there
        before uploading it. Nothing in it is shared with another rank, so
        ranks on several nodes, or with caches of their own, need no common
        file system."""
        return os.path.join(self.cache, f"rank-{rank:05d}")

    def prepare(self, step: int, rank: int) -> None:
        """Before any rank writes: rank 0 refuses a step the remote `latest`
        names or has passed (as a local save does) and removes remote
        leftovers of the step (a save killed while uploading: data, records,
        markers); every rank empties its own cache, which holds only copies
        on their way up."""
        if rank == 0:
            self.begin(step, apply=True)
        shutil.rmtree(self.rank_cache(rank), ignore_errors=True)
        os.makedirs(self.rank_cache(rank), exist_ok=True)

    def publish_from_ranks(self, step: int, written: tuple[str, str], keep: int,
                           timeout: float) -> None:
        """A synchronous save, on every rank once its data file is written:
        publish (below), then every rank raises when any failed."""
        error = None
        try:
            self.publish(step, written, keep, timeout, wait_for_commit=False)
        except _RetentionFailed as e:
            error = ("retention", str(e))
        except CheckpointError as e:
            error = ("publish", str(e))
        errors = _ckpt._gather(error)
        _ckpt._agree([e[1] if e and e[0] == "retention" else None for e in errors],
                     f"step {step} was published to {self.url}")
        _ckpt._agree([e[1] if e else None for e in errors],
                     f"step {step} was not published to {self.url} (every rank's local copy "
                     "is removed)")

    def publish_after(self, written: concurrent.futures.Future, step: int, keep: int,
                      timeout: float) -> concurrent.futures.Future:
        """The future of an asynchronous save on any rank: `written` (this
        rank's data file, its record the result), then publish, on a thread
        of its own; a rank's future completes once the step is committed
        remotely."""
        out: concurrent.futures.Future = concurrent.futures.Future()

        def run():
            try:
                self.publish(step, written.result(), keep, timeout, wait_for_commit=True)
                out.set_result(step)
            except BaseException as e:  # noqa: BLE001 - delivered through the future
                out.set_exception(e)

        threading.Thread(target=run, name="ssdopt-checkpoint-upload", daemon=True).start()
        return out

    # -- the commit through the store --------------------------------------
    #
    # Every rank uploads its own data file and verifies the object; every
    # other rank then uploads its record as step-…/rank-NNNNN.record; rank 0
    # waits for all records, assembles the manifest from them with the
    # library (ssdckpt_assemble_manifest), removes the records, uploads the
    # manifest (the remote commit) and moves `latest`. A rank that fails
    # leaves step-…/rank-NNNNN.failed holding its message, so that the
    # others stop waiting at once.

    def publish(self, step: int, written: tuple[str, str], keep: int, timeout: float,
                wait_for_commit: bool) -> None:
        """This rank's part of the remote commit of `step`: `written` is the
        directory in its cache where it wrote its data file and its record
        (checkpoint._write's answer). Raises
        CheckpointError (nothing published) when an upload, a verification
        or the commit fails, and _RetentionFailed (published) on rank 0
        when only the retention after it did. The local copy is removed
        whatever happened."""
        rank, world = _ckpt._rank_and_world()
        local_dir, record = written
        name = os.path.basename(local_dir)
        try:
            try:
                # The record is the library's text; its file is the data file.
                self._upload_data(local_dir, name, json.loads(record)["state"]["file"])
                if rank != 0:
                    self._call(f"writing {self.url_of(f'{name}/{_record_name(rank)}')}",
                               self.fs.pipe_file, self.remote(f"{name}/{_record_name(rank)}"),
                               record.encode())
                    if wait_for_commit:
                        self._await(name, world, timeout, "manifest.json",
                                    f"rank {rank} waited for rank 0 to commit")
                    return
                records = [record] + self._await(name, world, timeout, None,
                                                 "rank 0 waited for the records of ranks")
                self._commit(step, name, records, keep)
            except _RetentionFailed:
                raise
            except CheckpointError as error:
                self._mark_failed(name, rank, str(error))
                raise
        finally:
            shutil.rmtree(local_dir, ignore_errors=True)

    def _mark_failed(self, name: str, rank: int, message: str) -> None:
        try:
            self.fs.pipe_file(self.remote(f"{name}/{_failed_name(rank)}"),
                              message.encode()[:65536])
        except Exception:  # noqa: BLE001 - the store may be what failed
            pass

    def _await(self, name: str, world: int, timeout: float, target: str | None,
               what: str) -> list[str]:
        """Polls the step directory `name` until `target` is there (None:
        every other rank's record, which are returned in rank order) or a
        rank's failure marker is (its message raised), at most `timeout`
        seconds (ETIMEDOUT naming what is missing)."""
        deadline = time.monotonic() + timeout
        delay = 0.02
        while True:
            present = self.objects(name)
            failed = sorted(n for n in present if n.startswith(_failed_name("")))
            if failed:
                text = self._call(f"reading {self.url_of(f'{name}/{failed[0]}')}",
                                  self.fs.cat_file, self.remote(f"{name}/{failed[0]}"))
                raise CheckpointError(f"rank {failed[0][len(_failed_name('')):]} failed: "
                                      + text.decode("utf-8", "replace"), errno_module.EIO)
            if target is not None:
                if target in present:
                    return []
                missing = [target]
            else:
                missing = [r for r in range(1, world) if _record_name(r) not in present]
                if not missing:
                    return [self._call(f"reading {self.url_of(f'{name}/{_record_name(r)}')}",
                                       self.fs.cat_file,
                                       self.remote(f"{name}/{_record_name(r)}")).decode()
                            for r in range(1, world)]
            if time.monotonic() > deadline:
                raise CheckpointError(
                    f"{what} " + (", ".join(map(str, missing)) if target is None else "")
                    + f" for {timeout:g} s: {self.url_of(name)} has no "
                    + (", ".join(_record_name(r) for r in missing) if target is None
                       else target), errno_module.ETIMEDOUT)
            time.sleep(delay)
            delay = min(delay * 2, 0.5)

    def _commit(self, step: int, name: str, records: list[str], keep: int) -> None:
        """Rank 0, every data object up and verified: the manifest from the
        records, then the remote commit (the manifest's upload, read back
        and validated), `latest`, retention."""
        lib = _lib()
        array = (ctypes.c_char_p * len(records))(*[r.encode() for r in records])
        manifest = _json_text(lambda out: _ckpt._check(lib.ssdckpt_assemble_manifest(
            self.url_of(f"{name}/manifest.json").encode(), array, len(records), out),
            f"assembling the manifest of step {step}"))
        # The records are in the manifest now; then the step is committed.
        if len(records) > 1:
            self._call(f"removing the records of {self.url_of(name)}", self.fs.rm,
                       [self.remote(f"{name}/{_record_name(r)}")
                        for r in range(1, len(records))])
        self.begin(step, apply=False)  # `latest` has not moved past it meanwhile
        relative = f"{name}/manifest.json"
        self._call(f"writing {self.url_of(relative)}", self.fs.pipe_file, self.remote(relative),
                   manifest.encode())
        back = self._call(f"reading {self.url_of(relative)}", self.fs.cat_file,
                          self.remote(relative))
        if back != manifest.encode():
            raise CheckpointError(f"{self.url_of(relative)} differs from the manifest written "
                                  "when read back; the step is not published", errno_module.EIO)
        with tempfile.TemporaryDirectory(prefix="ssdopt-manifest-") as check:
            with open(os.path.join(check, "manifest.json"), "wb") as out:
                out.write(back)
            # Opening it is the library's validation, manifest checksum too.
            try:
                _ckpt._Reader(check).close()
            except CheckpointError as error:
                raise CheckpointError(self._rename(str(error), check, name),
                                      error.errno) from None
        self._publish_latest(name)
        if keep:
            try:
                self.collect_garbage(keep)
            except CheckpointError as error:
                raise _RetentionFailed(f"{name} is published and `latest` names it; retention "
                                       f"(keep_last={keep}) failed: {error}",
                                       error.errno) from None

    def _download(self, relative: str, local: str) -> None:
        self._call(f"downloading {self.url_of(relative)}", self.fs.get_file,
                   self.remote(relative), local)

    def _publish_latest(self, name: str) -> None:
        """Points the remote `latest` at `name` (one PUT: objects appear
        whole) and checks that the library reads the object back as naming
        it."""
        text = f"{name}\n".encode()
        self._call(f"writing {self.url_of('latest')}", self.fs.pipe_file, self.remote("latest"),
                   text)
        if self.latest_name() != name:
            raise CheckpointError(f"{self.url_of('latest')} does not name {name} when read "
                                  "back", errno_module.EIO)

    def _send_in_parts(self, local: str, remote: str):
        """Writes the file `local` to the object `remote` in parts of
        UPLOAD_PART_BYTES (an S3 store's multipart upload, one part per
        write); returns the MD5 of the whole file and of each part. A
        failure leaves no object where the store can abort the upload."""
        whole, parts = hashlib.md5(), []
        with open(local, "rb") as source:
            out = self.fs.open(remote, "wb", block_size=UPLOAD_PART_BYTES)
            try:
                while block := source.read(UPLOAD_PART_BYTES):
                    whole.update(block)
                    parts.append(hashlib.md5(block))
                    out.write(block)
            except BaseException as error:
                _abandon(out, error)
                raise
            out.close()
        return whole, parts

    def _upload_data(self, local_dir: str, name: str, file: str) -> None:
        """Uploads one data file, hashing each part as it is sent (the file
        is read once), and verifies the object: its size, and the MD5 of
        what was sent against the store's: an S3 store's ETag, the MD5 the
        server computed of what it stored (one part, or the parts of
        UPLOAD_PART_BYTES); a store whose objects carry no such checksum is
        read back and hashed instead. Nothing is downloaded from S3."""
        local = os.path.join(local_dir, file)
        relative = f"{name}/{file}"
        url = self.url_of(relative)
        size = os.path.getsize(local)
        s3 = "s3" in _protocols(self.fs)
        whole, parts = self._call(f"uploading {local} to {url}", self._send_in_parts, local,
                                  self.remote(relative))
        self.fs.invalidate_cache(self.remote(name))
        info = self._call(f"checking {url}", self.fs.info, self.remote(relative))
        if int(info.get("size") or 0) != size:
            raise CheckpointError(f"{url} has {info.get('size')} bytes after the upload of "
                                  f"{local} ({size} bytes); the step is not published",
                                  errno_module.EIO)
        etag = str(info.get("ETag") or info.get("etag") or "").strip('"')
        if s3 and etag:
            single = size < UPLOAD_PART_BYTES  # S3File puts a file below one part at once
            expected = whole.hexdigest() if single else hashlib.md5(
                b"".join(p.digest() for p in parts)).hexdigest() + f"-{len(parts)}"
            if etag == expected:
                return
            if single or "-" in etag:
                raise CheckpointError(f"{url}: the store's checksum (ETag {etag}) is not the "
                                      f"MD5 of the {size} bytes uploaded from {local} "
                                      f"({expected}); the step is not published",
                                      errno_module.EIO)
        # No content checksum from the store: read the object back.
        got = hashlib.md5()
        path = self.remote(relative)
        for batch in range(0, size, FETCH_BATCH_BYTES):
            starts = list(range(batch, min(size, batch + FETCH_BATCH_BYTES), READ_RANGE_BYTES))
            ends = [min(size, start + READ_RANGE_BYTES) for start in starts]
            blobs = self._call(f"reading {url} from offset {batch}", self.fs.cat_ranges,
                               [path] * len(starts), starts, ends)
            for blob, start, end in zip(blobs, starts, ends):
                if len(blob) != end - start:
                    raise CheckpointError(f"{url} is truncated: reading offset {start} length "
                                          f"{end - start} gave {len(blob)} bytes",
                                          errno_module.ENODATA)
                got.update(blob)
            global _fetched
            with _fetched_lock:
                _fetched += sum(map(len, blobs))
        if got.hexdigest() != whole.hexdigest():
            raise CheckpointError(f"{url} differs from {local} when read back after its upload "
                                  f"(MD5 {got.hexdigest()}, uploaded {whole.hexdigest()}); the "
                                  "step is not published", errno_module.EIO)


def _abandon(out, error: BaseException) -> None:
    """Lets go of `out`, a remote file whose upload failed with `error`,
    without finishing the upload: an fsspec buffered file (S3's) sends what
    it holds and completes the upload when it is closed, by close() or once
    collected, leaving an object of the parts sent so far. So such a file
    throws away what the store can (discard: S3 aborts the multipart
    upload) and is marked closed, with nothing left to finish; any other
    file is closed (its store keeps what was written, which no manifest
    names). A failure here is noted on `error`, which stays the one raised."""
    import fsspec.spec
    try:
        if isinstance(out, fsspec.spec.AbstractBufferedFile):
            try:
                out.discard()
            finally:
                out.closed = True
        else:
            out.close()
    except Exception as also:  # noqa: BLE001 - the upload's own error is what matters
        error.add_note(f"abandoning the upload to {getattr(out, 'path', out)} failed too: "
                       f"{type(also).__name__}: {also}")


def _protocols(fs) -> tuple:
    protocol = fs.protocol
    return (protocol,) if isinstance(protocol, str) else tuple(protocol)


# The objects of the commit through the store (beside the data files in an
# uncommitted step directory; the format's retention removes them as any
# other leftover).
def _record_name(rank: int) -> str:
    return f"record-{rank}"


def _failed_name(rank: int) -> str:
    return f"failed-{rank}"


class RemoteReader(_ckpt._Reader):
    """A committed remote step read through a sparse local copy: every read
    of the library is planned first (ssdckpt_reader_plan) and exactly those
    ranges are fetched (range reads); the library verifies them as it loads.
    Messages name the remote objects."""

    def __init__(self, remote: Remote, step_dir: str):
        self.remote_root = remote
        self.step_dir = step_dir
        self._owned = tempfile.mkdtemp(prefix="ssdopt-read-")
        local_dir = os.path.join(self._owned, os.path.basename(step_dir) or "step")
        os.mkdir(local_dir)
        self.local_dir = local_dir
        remote._download(self._relative("manifest.json"), os.path.join(local_dir, "manifest.json"))
        try:
            super().__init__(local_dir)
        except CheckpointError as error:
            self._cleanup()
            raise self._renamed(error) from None
        self.directory = remote.url_of(step_dir)
        self._fetched: dict[str, list[tuple[int, int]]] = {}
        self._sizes: dict[str, int] = {}

    def _relative(self, file: str) -> str:
        return f"{self.step_dir}/{file}" if self.step_dir else file

    def _renamed(self, error: CheckpointError) -> CheckpointError:
        return CheckpointError(self.remote_root._rename(str(error), self.local_dir,
                                                        self.step_dir), error.errno)

    def _cleanup(self) -> None:
        if self._owned:
            shutil.rmtree(self._owned, ignore_errors=True)
            self._owned = None

    def close(self) -> None:
        super().close()
        self._cleanup()

    # -- fetching ------------------------------------------------------------

    def _fetch(self, plan: dict) -> None:
        """Fetches the plan's ranges not fetched yet into the sparse files."""
        for f in plan["files"]:
            path = os.path.join(self.local_dir, f["file"])
            if f["file"] not in self._sizes:
                # Never truncates what another reader of this copy fetched.
                fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
                try:
                    if os.fstat(fd).st_size != f["bytes"]:
                        os.ftruncate(fd, f["bytes"])
                finally:
                    os.close(fd)
                self._sizes[f["file"]] = f["bytes"]
        wanted = []
        for r in plan["reads"]:
            done = self._fetched.setdefault(r["file"], [])
            start, end = r["offset"], r["offset"] + r["length"]
            if any(a <= start and end <= b for a, b in done):
                continue
            wanted.append((r["file"], start, end))
        batch, batch_bytes = [], 0
        for item in wanted:
            batch.append(item)
            batch_bytes += item[2] - item[1]
            if batch_bytes >= FETCH_BATCH_BYTES:
                self._fetch_batch(batch)
                batch, batch_bytes = [], 0
        if batch:
            self._fetch_batch(batch)

    def _fetch_batch(self, batch) -> None:
        remote = self.remote_root
        paths = [remote.remote(self._relative(f)) for f, _, _ in batch]
        what = (f"reading {len(batch)} ranges of {remote.url_of(self.step_dir)}"
                if len(batch) > 1 else
                f"reading {remote.url_of(self._relative(batch[0][0]))} at offset {batch[0][1]} "
                f"length {batch[0][2] - batch[0][1]}")
        blobs = remote._call(what, lambda: remote.fs.cat_ranges(
            paths, [s for _, s, _ in batch], [e for _, _, e in batch], on_error="return"))
        for (file, start, end), blob in zip(batch, blobs):
            if isinstance(blob, BaseException):
                raise CheckpointError(f"reading {remote.url_of(self._relative(file))} at "
                                      f"offset {start} length {end - start}: {_cause(blob)}",
                                      errno_module.EIO)
            if len(blob) != end - start:
                raise CheckpointError(
                    f"{remote.url_of(self._relative(file))} is truncated: reading offset "
                    f"{start} length {end - start} gave {len(blob)} bytes, the manifest "
                    f"records {self._sizes.get(file)} bytes", errno_module.ENODATA)
            fd = os.open(os.path.join(self.local_dir, file), os.O_WRONLY)
            try:
                os.pwrite(fd, blob, start)
            finally:
                os.close(fd)
            self._fetched[file].append((start, end))
            global _fetched
            with _fetched_lock:
                _fetched += len(blob)

    def _plan(self, boxes) -> dict:
        """What the library reads to fill `boxes` (as load_boxes takes them)."""
        requests, count, keep = _ckpt._request_array(
            (name, code, shape, offsets, sizes, dest.data_ptr())
            for name, code, shape, offsets, sizes, dest in boxes if dest.numel())
        return _json_out(lambda out: _ckpt._check(
            _lib().ssdckpt_reader_plan(self.handle, requests, count, out), ""))

    def _plan_verify(self, file: str | None = None) -> dict:
        lib = _lib()
        return _json_out(lambda out: _ckpt._check(lib.ssdckpt_reader_plan_verify(
            self.handle, file.encode() if file else None, out), ""))

    # -- the reader's reads, fetched first ---------------------------------

    def load_box(self, name, code, shape, offsets, sizes, dest) -> None:
        self.load_boxes([(name, code, shape, offsets, sizes, dest)])

    def load_boxes(self, boxes) -> None:
        try:
            self._fetch(self._plan(boxes))
            super().load_boxes(boxes)
        except CheckpointError as error:
            raise self._renamed(error) from None

    def verify(self) -> None:
        try:
            self._fetch(self._plan_verify(None))
            super().verify()
        except CheckpointError as error:
            raise self._renamed(error) from None
