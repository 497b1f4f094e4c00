package io.privacygateway.client;

import io.privacygateway.mechanisms.budget.DeviceLedger;
import io.privacygateway.mechanisms.budget.DeviceLedgerCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * A device's durable state in one directory: its budget ledger and its queue of reports not yet settled, in ONE
 * file ({@value #STATE}), so that a charge and the report it paid for become durable in one atomic step.
 *
 * <p><b>Crash rules.</b> Every change writes the whole state to {@value #TEMP}, forces it to the device
 * ({@code fsync}), renames it over {@value #STATE} atomically ({@code ATOMIC_MOVE}) and then forces the directory.
 * The state on disk is therefore always either the one before a change or the one after it: a kill -9 or a power
 * loss at any point neither loses a recorded charge nor keeps a report without its charge (the report of an
 * admitted charge is queued in the same write), and a report is removed from the queue only after it was settled
 * (accepted, rejected, or dropped). A leftover temp file (a crash during a write) is deleted on open: the rename
 * never happened, so it holds nothing that was ever acknowledged. The file ends with a CRC-32 of its content; a
 * state file that fails it is refused ({@link #open} throws), never reset, since a reset would forget charges.
 * In-memory state changes only after the rename succeeded, so a failed write leaves memory and disk equal.
 *
 * <p><b>Bounds.</b> The queue holds at most {@code maxReports} reports and {@code maxBytes} bytes of encoded reports;
 * {@link #enqueue} refuses beyond ({@link QueueFullException}) before anything is written. Each write costs one
 * file of the state's size (ledger plus queue: a few kB for a phone's usual state, at most about the two bounds).
 *
 * <p><b>One process.</b> {@link #open} takes an exclusive lock ({@value #LOCK}, released by the OS when the process
 * dies): a second client on the same directory fails at start instead of double-spending. Thread-safe: callers
 * serialize read-admit-enqueue steps on this object's monitor, which is also what its methods lock.
 */
public final class FileDeviceStore implements DeviceBudget, AutoCloseable {
    /** The state file. */
    public static final String STATE = "pgw-device.state";
    /** The temp file of a write in progress. */
    public static final String TEMP = "pgw-device.state.tmp";
    /** The lock file. */
    public static final String LOCK = "pgw-device.lock";
    /** Default bound on queued reports. */
    public static final int DEFAULT_MAX_REPORTS = 1000;
    /** Default bound on queued bytes (encoded reports). */
    public static final long DEFAULT_MAX_BYTES = 4L << 20;

    private static final int MAGIC = 0x50475744; // "PGWD"
    private static final int FORMAT = 1;

    private final Path dir;
    private final int maxReports;
    private final long maxBytes;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private DeviceLedger ledger;
    private final LinkedHashMap<Long, Entry> queue = new LinkedHashMap<>();
    /** The encoded form of each queued report (written as is by every write: never re-encoded). */
    private final Map<Long, byte[]> encoded = new HashMap<>();
    private long queuedBytes;
    private long nextId;
    /** Ids below it are on disk; staged entries ({@link #stage}) have ids from it up. */
    private long durableNextId;
    /** Whether memory holds a change (a staged charge and report) that is not on disk yet. */
    private boolean dirty;
    private long accepted;
    private long rejected;
    private long dropped;
    private boolean closed;

    /**
     * A queued report: its local id, the last instant its window accepts it, and the report.
     *
     * @param id the store's id of the report (increasing)
     * @param acceptUntil epoch ms after which the gateway can no longer accept it
     * @param report the report
     * @param size its encoded size in bytes
     */
    public record Entry(long id, long acceptUntil, DeviceReport report, int size) {}

    /** How a queued report was settled. */
    public enum Settlement { ACCEPTED, REJECTED, DROPPED }

    /** The queue has no room for the report; nothing was written. */
    public static final class QueueFullException extends IOException {
        QueueFullException(String m) {
            super(m);
        }
    }

    private FileDeviceStore(Path dir, int maxReports, long maxBytes, FileChannel lockChannel, FileLock lock) {
        this.dir = dir;
        this.maxReports = maxReports;
        this.maxBytes = maxBytes;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Opens (or creates) the store in {@code dir} with the default bounds. */
    public static FileDeviceStore open(Path dir) throws IOException {
        return open(dir, DEFAULT_MAX_REPORTS, DEFAULT_MAX_BYTES);
    }

    /**
     * Opens (or creates) the store in {@code dir}.
     *
     * @throws IOException if the directory cannot be created, another process (or another store in this one) holds
     *     it, or the state file is corrupt (the message names the file; the store is never silently reset)
     * @throws IllegalArgumentException naming the field if a bound is not positive
     */
    public static FileDeviceStore open(Path dir, int maxReports, long maxBytes) throws IOException {
        if (maxReports < 1) {
            throw new IllegalArgumentException("maxQueuedReports must be >= 1, got " + maxReports);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxQueuedBytes must be >= 1, got " + maxBytes);
        }
        Files.createDirectories(dir);
        FileChannel ch = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            ch.close();
            throw new IOException("the device store " + dir + " is in use by another client (" + LOCK + " is locked)");
        }
        FileDeviceStore s = new FileDeviceStore(dir, maxReports, maxBytes, ch, lock);
        try {
            Files.deleteIfExists(dir.resolve(TEMP)); // an interrupted write: never renamed, never acknowledged
            s.load();
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    private void load() throws IOException {
        Path state = dir.resolve(STATE);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(state);
        } catch (NoSuchFileException e) {
            ledger = DeviceLedger.empty();
            return;
        }
        if (bytes.length < 16) {
            throw corrupt(state, "shorter than its header");
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 8);
        if (crc.getValue() != ByteBuffer.wrap(bytes, bytes.length - 8, 8).getLong()) {
            throw corrupt(state, "its checksum does not match");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - 8))) {
            if (in.readInt() != MAGIC) {
                throw corrupt(state, "not a device state file");
            }
            int format = in.readInt();
            if (format != FORMAT) {
                throw corrupt(state, "format " + format + " is not read by this SDK");
            }
            ledger = DeviceLedgerCodec.decode(readBlock(in, DeviceLedgerCodec.MAX_BYTES));
            nextId = in.readLong();
            accepted = in.readLong();
            rejected = in.readLong();
            dropped = in.readLong();
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                long id = in.readLong();
                long until = in.readLong();
                byte[] r = readBlock(in, ReportEnvelope.MAX_BODY_BYTES);
                queue.put(id, new Entry(id, until, ReportEnvelope.decodeOne(r), r.length));
                encoded.put(id, r);
                queuedBytes += r.length;
            }
            if (in.available() != 0) {
                throw corrupt(state, "trailing bytes");
            }
            durableNextId = nextId;
        } catch (IOException | RuntimeException e) {
            if (e instanceof IOException io && io.getMessage() != null && io.getMessage().startsWith("corrupt")) {
                throw io;
            }
            throw corrupt(state, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static byte[] readBlock(DataInputStream in, int max) throws IOException {
        int len = in.readInt();
        if (len < 0 || len > max) {
            throw new IOException("corrupt block length " + len);
        }
        byte[] b = new byte[len];
        in.readFully(b);
        return b;
    }

    private static IOException corrupt(Path file, String why) {
        return new IOException("corrupt device state " + file + ": " + why + " (refusing to start: resetting it would"
                + " forget charges; move it away only if forgetting this device's budget is acceptable)");
    }

    /** The directory of the store. */
    public Path directory() {
        return dir;
    }

    @Override
    public synchronized DeviceLedger ledger() {
        return ledger;
    }

    /**
     * Replaces the ledger durably (same queue).
     *
     * @throws UncheckedIOException if the write fails (then nothing changed)
     */
    @Override
    public synchronized void record(DeviceLedger updated) {
        Objects.requireNonNull(updated, "updated");
        try {
            write(updated, queue.values(), accepted, rejected, dropped);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ledger = updated;
        markDurable();
    }

    /** Whether a report of {@code size} encoded bytes fits the queue now. */
    public synchronized boolean hasRoomFor(int size) {
        return queue.size() < maxReports && queuedBytes + size <= maxBytes;
    }

    /**
     * Records a charge and queues the report it paid for, in one atomic durable write ({@link #stage} then
     * {@link #flush}).
     *
     * @param updated the ledger with the report's charge
     * @return the entry queued
     * @throws QueueFullException if the queue has no room (nothing changed)
     * @throws IOException if the write failed (the report is not queued; see {@link #flush})
     */
    public synchronized Entry enqueue(DeviceLedger updated, DeviceReport report, long acceptUntil) throws IOException {
        Entry e = stage(updated, report, acceptUntil);
        List<Entry> lost = flush();
        if (!lost.isEmpty()) {
            throw new IOException("cannot write the device store " + dir);
        }
        return e;
    }

    /**
     * Records a charge and queues the report it paid for in memory only, without I/O (microseconds): the next
     * {@link #flush} makes both durable in one atomic write. Until then the report is not {@link #durable} and is never
     * sent, so a crash before the flush forgets the charge only together with a report that never left the device.
     * Admission reads the ledger with the staged charges ({@link #ledger()}), so nothing is spent twice.
     *
     * @param updated the ledger with the report's charge
     * @return the entry staged
     * @throws QueueFullException if the queue has no room (nothing changed)
     * @throws IOException if the store is closed
     */
    public synchronized Entry stage(DeviceLedger updated, DeviceReport report, long acceptUntil) throws IOException {
        checkOpen();
        Objects.requireNonNull(updated, "updated");
        byte[] encoded = ReportEnvelope.encodeOne(report);
        if (!hasRoomFor(encoded.length)) {
            throw new QueueFullException("the offline queue holds " + queue.size() + " reports (" + queuedBytes
                    + " bytes); bounds " + maxReports + " reports, " + maxBytes + " bytes");
        }
        Entry e = new Entry(nextId++, acceptUntil, report, encoded.length);
        this.encoded.put(e.id(), encoded);
        ledger = updated;
        queue.put(e.id(), e);
        queuedBytes += e.size();
        dirty = true;
        return e;
    }

    /**
     * Writes every staged charge and report to disk in one atomic write (group commit: one fsync for all reports
     * staged since the last write). Nothing to do when nothing is staged.
     *
     * <p>If the write fails, the staged reports are removed from the queue (they were never durable, so never sent)
     * and returned; their charges stay in the in-memory ledger and are written with the next successful write, so a
     * failed write can only over-count the device's spending, never under-count it.
     *
     * @return the staged entries that were dropped because the write failed (empty on success)
     */
    public synchronized List<Entry> flush() {
        if (!dirty || closed) {
            return List.of();
        }
        try {
            write(ledger, queue.values(), accepted, rejected, dropped);
            markDurable();
            return List.of();
        } catch (IOException e) {
            List<Entry> lost = new ArrayList<>();
            for (Entry q : new ArrayList<>(queue.values())) {
                if (q.id() >= durableNextId) {
                    lost.add(q);
                    queue.remove(q.id());
                    encoded.remove(q.id());
                    queuedBytes -= q.size();
                }
            }
            return lost;
        }
    }

    /** Whether a queued entry is on disk (only durable entries are sent). */
    public synchronized boolean durable(Entry e) {
        return e.id() < durableNextId;
    }

    private void markDurable() {
        durableNextId = nextId;
        dirty = false;
    }

    /** The queued reports, oldest first, staged ones included (a copy). */
    public synchronized List<Entry> queued() {
        return new ArrayList<>(queue.values());
    }

    /** The queued reports that are on disk, oldest first (a copy): the only ones that may be sent. */
    public synchronized List<Entry> durableQueued() {
        List<Entry> out = new ArrayList<>();
        for (Entry e : queue.values()) {
            if (e.id() < durableNextId) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * Removes settled reports from the queue and counts them, in one durable write. Unknown ids are ignored.
     *
     * @throws IOException if the write failed (nothing changed: the reports stay queued and will be sent again)
     */
    public synchronized void settle(Map<Long, Settlement> settled) throws IOException {
        checkOpen();
        long a = accepted;
        long r = rejected;
        long d = dropped;
        List<Entry> next = new ArrayList<>();
        for (Entry e : queue.values()) {
            Settlement s = settled.get(e.id());
            if (s == null) {
                next.add(e);
            } else if (s == Settlement.ACCEPTED) {
                a++;
            } else if (s == Settlement.REJECTED) {
                r++;
            } else {
                d++;
            }
        }
        if (next.size() == queue.size()) {
            return;
        }
        write(ledger, next, a, r, d);
        markDurable();
        accepted = a;
        rejected = r;
        dropped = d;
        for (Long id : settled.keySet()) {
            Entry e = queue.remove(id);
            encoded.remove(id);
            if (e != null) {
                queuedBytes -= e.size();
            }
        }
    }

    /** Reports accepted by the gateway (or its front door) since the store was created. */
    public synchronized long accepted() {
        return accepted;
    }

    /** Reports rejected for good since the store was created. */
    public synchronized long rejected() {
        return rejected;
    }

    /** Reports dropped since the store was created because their window could no longer accept them. */
    public synchronized long dropped() {
        return dropped;
    }

    /** Encoded bytes of the queued reports. */
    public synchronized long queuedBytes() {
        return queuedBytes;
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("the device store " + dir + " is closed");
        }
    }

    private void write(DeviceLedger l, Collection<Entry> q, long a, long r, long d) throws IOException {
        checkOpen();
        ByteArrayOutputStream buf = new ByteArrayOutputStream(256 + (int) Math.min(Integer.MAX_VALUE / 2, queuedBytes));
        DataOutputStream out = new DataOutputStream(buf);
        out.writeInt(MAGIC);
        out.writeInt(FORMAT);
        byte[] lb = DeviceLedgerCodec.encode(l);
        out.writeInt(lb.length);
        out.write(lb);
        out.writeLong(nextId);
        out.writeLong(a);
        out.writeLong(r);
        out.writeLong(d);
        out.writeInt(q.size());
        for (Entry e : q) {
            byte[] rb = encoded.get(e.id());
            out.writeLong(e.id());
            out.writeLong(e.acceptUntil());
            out.writeInt(rb.length);
            out.write(rb);
        }
        out.flush();
        CRC32 crc = new CRC32();
        byte[] body = buf.toByteArray();
        crc.update(body, 0, body.length);
        ByteBuffer all = ByteBuffer.allocate(body.length + 8).put(body).putLong(crc.getValue());
        ((Buffer) all).flip(); // Buffer.flip: ByteBuffer.flip() is Java 9 (Android API 33)
        Path tmp = dir.resolve(TEMP);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            while (all.hasRemaining()) {
                ch.write(all);
            }
            ch.force(true);
        }
        try {
            Files.move(tmp, dir.resolve(STATE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system of " + dir + " cannot rename atomically: no crash-safe store", e);
        }
        syncDirectory();
    }

    /** Makes the rename durable; a platform that cannot open a directory (some) relies on the file system's order. */
    private void syncDirectory() {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | RuntimeException ignored) {
            // best effort: not every platform can fsync a directory
        }
    }

    /** Releases the directory's lock. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it too
        }
        try {
            lockChannel.close();
        } catch (IOException ignored) {
            // nothing left to do
        }
    }
}
