package io.privacygateway.ingest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The revocation list: a text file of revoked device ids, and of revoked enrollment key ids as {@code key:<id>}, one
 * a line ({@code #} starts a comment). It is re-read when its modification time or size changes, checked at most
 * once per {@code checkEvery} (so a revocation takes effect within that time on every instance that mounts the
 * file). A file that cannot be read keeps the previous list (and is logged); a missing file at start is an error.
 *
 * <p>Why a file and not a compacted topic: the list is small, written by an operator (not by devices), must be in
 * force before the first request (a file is read synchronously at start), and is the same on every instance when
 * it is one ConfigMap or Secret; a topic would add a consumer and a readiness dependency to a service whose only
 * other dependency is the producer path.
 */
final class Revocations {
    private static final Logger LOG = LoggerFactory.getLogger(Revocations.class);
    private final Path file;
    private final long checkEveryNanos;
    private final LongSupplier nanos;
    private volatile Set<String> devices = Set.of();
    private volatile Set<String> keyIds = Set.of();
    private volatile long nextCheck;
    private FileTime lastModified;
    private long lastSize = -1;

    Revocations(Path file, long checkEveryNanos, LongSupplier nanos) throws IOException {
        this.file = file;
        this.checkEveryNanos = checkEveryNanos;
        this.nanos = nanos;
        if (file != null) {
            if (!Files.isReadable(file)) {
                throw new IllegalArgumentException("revocationFile: cannot read " + file);
            }
            load();
            nextCheck = nanos.getAsLong() + checkEveryNanos;
        }
    }

    /** Whether {@code deviceId} (or the key id {@code keyId}, may be null) is revoked. */
    boolean revoked(String deviceId, String keyId) {
        maybeReload();
        return devices.contains(deviceId) || (keyId != null && keyIds.contains(keyId));
    }

    /** How many entries the list holds now. */
    int size() {
        return devices.size() + keyIds.size();
    }

    private void maybeReload() {
        if (file == null || nanos.getAsLong() - nextCheck < 0) {
            return;
        }
        synchronized (this) {
            if (nanos.getAsLong() - nextCheck < 0) {
                return;
            }
            nextCheck = nanos.getAsLong() + checkEveryNanos;
            try {
                FileTime m = Files.getLastModifiedTime(file);
                long size = Files.size(file);
                if (!m.equals(lastModified) || size != lastSize) {
                    load();
                }
            } catch (IOException e) {
                LOG.warn("cannot re-read the revocation file {} (keeping {} entries): {}", file, size(), e.toString());
            }
        }
    }

    private synchronized void load() throws IOException {
        FileTime m = Files.getLastModifiedTime(file);
        long size = Files.size(file);
        Set<String> d = new HashSet<>();
        Set<String> k = new HashSet<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int hash = line.indexOf('#');
            String s = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (s.isEmpty()) {
                continue;
            }
            if (s.startsWith("key:")) {
                k.add(s.substring(4));
            } else {
                d.add(s);
            }
        }
        devices = Set.copyOf(d);
        keyIds = Set.copyOf(k);
        lastModified = m;
        lastSize = size;
        LOG.info("revocation list {}: {} devices, {} keys", file, d.size(), k.size());
    }
}
