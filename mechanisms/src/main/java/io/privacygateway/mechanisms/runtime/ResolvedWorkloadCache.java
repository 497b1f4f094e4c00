package io.privacygateway.mechanisms.runtime;

import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded cache of {@link ResolvedWorkload}s by content hash, shared by threads. Building a runtime can be
 * costly (chaining builds nets), so each version is built once, by the first caller, while concurrent callers
 * for the same hash wait for it; at most {@code capacity} versions are kept, least recently used evicted (an
 * evicted version is rebuilt if it is needed again). A failed build is not cached.
 */
public final class ResolvedWorkloadCache {
    private final int capacity;
    private final LinkedHashMap<String, CompletableFuture<ResolvedWorkload>> entries;
    private final AtomicLong builds = new AtomicLong();

    /** A cache of at most {@code capacity >= 1} workload versions. */
    public ResolvedWorkloadCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
        this.entries = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** The runtime of {@code spec}, built once per content hash (see {@link ResolvedWorkload#of}). */
    public ResolvedWorkload get(WorkloadSpec spec) {
        return get(spec, CanonicalForm.contentHash(spec));
    }

    /**
     * The runtime of {@code spec} whose content hash the caller has already computed.
     *
     * @throws IllegalArgumentException if the spec is unresolved or unusable (as {@link ResolvedWorkload#of})
     */
    public ResolvedWorkload get(WorkloadSpec spec, String contentHash) {
        CompletableFuture<ResolvedWorkload> mine;
        CompletableFuture<ResolvedWorkload> existing;
        synchronized (entries) {
            existing = entries.get(contentHash);
            mine = existing == null ? new CompletableFuture<>() : null;
            if (mine != null) {
                entries.put(contentHash, mine);
                if (entries.size() > capacity) {
                    var it = entries.entrySet().iterator();
                    while (entries.size() > capacity && it.hasNext()) {
                        Map.Entry<String, CompletableFuture<ResolvedWorkload>> e = it.next();
                        if (e.getValue() != mine) {
                            it.remove();
                        }
                    }
                }
            }
        }
        if (mine == null) {
            try {
                return existing.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                throw e;
            }
        }
        try {
            builds.incrementAndGet();
            ResolvedWorkload w = ResolvedWorkload.of(spec);
            mine.complete(w);
            return w;
        } catch (RuntimeException | Error e) {
            synchronized (entries) {
                entries.remove(contentHash, mine);
            }
            mine.completeExceptionally(e);
            throw e;
        }
    }

    /** A cached version, or {@code null} (does not build). */
    public ResolvedWorkload ifPresent(String contentHash) {
        CompletableFuture<ResolvedWorkload> f;
        synchronized (entries) {
            f = entries.get(contentHash);
        }
        return f != null && f.isDone() && !f.isCompletedExceptionally() ? f.join() : null;
    }

    /** How many builds this cache has started (failed ones included): each is a {@link ResolvedWorkload#of}. */
    public long builds() {
        return builds.get();
    }

    /** How many versions are cached. */
    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }
}
