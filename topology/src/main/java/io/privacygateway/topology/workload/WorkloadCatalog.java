package io.privacygateway.topology.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.privacygateway.mechanisms.budget.BudgetLedger;
import io.privacygateway.mechanisms.runtime.CentralWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.runtime.ResolvedWorkloadCache;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import io.privacygateway.schemas.limits.RecordSizes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The registered workloads as one gateway instance knows them, shared by its stream threads and its global
 * thread: the current {@link Registration} of every workload id (kept up to date by the workloads processor
 * from the compacted workloads topic, including on restore) and the resolved runtime of every version seen, so
 * that a report's lookup is one map read (no store access, no parsing) and every version whose windows are
 * still open stays resolvable after it was replaced.
 *
 * <p>Every version in use — each id's current version and the versions in its {@linkplain #history history}, which
 * covers every version that may still have windows to answer ({@link #MAX_OPEN_VERSIONS}) — is held resolved for as
 * long as it is in use, whatever their number: it is built once, when it is registered (on the global thread), and
 * a lookup by hash never builds it again. Only versions outside every history (after a restart from a compacted
 * workloads topic, a schedule may still name an older version) are resolved on demand from their spec (kept in
 * memory, or read back from the global store) into a bounded cache ({@link #VERSIONS_KEPT}).
 */
public final class WorkloadCatalog {
    /** How many versions outside every history an instance keeps resolved (least recently used evicted). */
    public static final int VERSIONS_KEPT = 256;
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The most versions of one workload that may have windows still to be answered when another is registered: a
     * version's windows are open until the window containing its replacement (or deletion) has closed (end plus
     * grace). A registration beyond it is refused (counted in {@code pgw.workloads.invalid}), so the release
     * schedule, which holds one segment per such version, stays far below what its store accepts.
     */
    public static final int MAX_OPEN_VERSIONS = 64;
    /** How many registration changes of one workload id {@link #history} keeps (enough for the open versions). */
    public static final int HISTORY_KEPT = 2 * MAX_OPEN_VERSIONS + 2;
    private final Map<String, Registration> current = new ConcurrentHashMap<>();
    private final Map<String, List<Registration>> history = new ConcurrentHashMap<>();
    /** The resolved versions the histories name, by content hash, and how many history entries name each. */
    private final Map<String, ResolvedWorkload> inUse = new ConcurrentHashMap<>();
    private final Map<String, Integer> uses = new HashMap<>();
    private final Map<String, String> specs = new ConcurrentHashMap<>();
    private final ResolvedWorkloadCache cache = new ResolvedWorkloadCache(VERSIONS_KEPT);
    private volatile Function<String, String> specStore = h -> null;
    private volatile long answersFrom = Long.MIN_VALUE;
    private volatile Map<String, BudgetLedger.GroupView> groups = Map.of();

    /** Thrown when a registered spec is unusable (the message names the field). */
    public static final class BadSpecException extends RuntimeException {
        public BadSpecException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Sets the fallback lookup of a spec's canonical JSON by content hash (the global store), used when a
     * version is no longer in memory.
     */
    public void specStore(Function<String, String> lookup) {
        this.specStore = lookup;
    }

    /**
     * Sets the time from which this deployment answers windows (its first start, broker time): a version
     * registered before it is treated as active from it on, so a new deployment does not answer, and charge
     * privacy for, every window of a workload's past.
     */
    public void answersFrom(long time) {
        this.answersFrom = time;
    }

    /** The current registration of {@code id}, or {@code null} if none (never registered, or unknown id). */
    public Registration current(String id) {
        return id == null ? null : current.get(id);
    }

    /**
     * The registration changes of {@code id} this instance has seen (activations and deletions, each as the
     * {@link Registration} it made current), oldest first, the current registration last; at most
     * {@link #HISTORY_KEPT} (older ones are dropped). Lets the release step apply every change in order even when
     * several happen between two of its looks at the catalog.
     */
    public List<Registration> history(String id) {
        return id == null ? List.of() : history.getOrDefault(id, List.of());
    }

    private synchronized void makeCurrent(Registration r) {
        uses.merge(r.contentHash(), 1, Integer::sum);
        inUse.putIfAbsent(r.contentHash(), r.workload());
        List<Registration> next = new ArrayList<>(history(r.id()));
        next.add(r);
        while (next.size() > HISTORY_KEPT) {
            Registration dropped = next.remove(0);
            if (uses.merge(dropped.contentHash(), -1, Integer::sum) <= 0) {
                uses.remove(dropped.contentHash());
                inUse.remove(dropped.contentHash());
            }
        }
        history.put(r.id(), List.copyOf(next));
        current.put(r.id(), r);
    }

    /** How many workload versions this instance has built (each registration of a new version builds it once). */
    public long versionsBuilt() {
        return cache.builds();
    }

    /** Every current registration, deleted ones included. */
    public Collection<Registration> registrations() {
        return List.copyOf(current.values());
    }

    /**
     * Activates a version: validates and resolves the spec (so a bad spec never becomes current), then makes it
     * the current registration of its id.
     *
     * @throws BadSpecException if the spec is unusable
     */
    public Registration activate(String id, String specJson, String contentHash, long since) {
        long from = Math.max(since, answersFrom);
        checkOpenVersions(id, from); // before building: a refused version costs nothing
        ResolvedWorkload w = resolve(specJson, contentHash);
        try {
            RecordSizes.check(w);
            if (w instanceof CentralWorkload central) {
                central.checkReleasable();
            }
        } catch (IllegalArgumentException e) {
            throw new BadSpecException(e.getMessage(), e);
        }
        if (!w.id().equals(id)) {
            throw new BadSpecException("id: the record key " + id + " differs from the spec id " + w.id(), null);
        }
        specs.put(contentHash, specJson);
        Registration r = new Registration(id, contentHash, from, w);
        makeCurrent(r);
        groupsChanged();
        return r;
    }

    /**
     * Refuses a registration of {@code id} at {@code at} if {@link #MAX_OPEN_VERSIONS} of its versions still have
     * windows that have not closed (each version's last window is the one containing the next change).
     */
    private void checkOpenVersions(String id, long at) {
        List<Registration> changes = history(id);
        int open = 0;
        for (int i = 0; i < changes.size(); i++) {
            Registration r = changes.get(i);
            if (r.deleted()) {
                continue; // the deletion of the activation before it
            }
            long end = i + 1 < changes.size() ? changeTime(changes.get(i + 1)) : at;
            var window = r.workload().window();
            if (window.closesAt(window.startOf(Math.min(end, at))) > at) {
                open++;
            }
        }
        if (open >= MAX_OPEN_VERSIONS) {
            throw new BadSpecException("version: " + open + " versions of workload " + id + " still have windows to"
                    + " answer, the most allowed (" + MAX_OPEN_VERSIONS + "); register the next version after the"
                    + " window of an earlier one has closed", null);
        }
    }

    private static long changeTime(Registration r) {
        return r.deleted() ? r.deletedAt() : r.since();
    }

    /**
     * Budget group {@code name} as the current catalog declares it: the ids of the workloads whose current version
     * names it (deleted ones excluded) and each one's declaration of its budget (every declaration binds: a group's
     * budget changes once every member's new version declares the new one, and a lower budget binds at once), or
     * {@code null} if no current version names it.
     */
    public BudgetLedger.GroupView groupView(String name) {
        return groups.get(name);
    }

    private synchronized void groupsChanged() {
        Map<String, List<ResolvedWorkload>> members = new TreeMap<>();
        for (Registration r : current.values()) {
            var group = r.workload().spec().budget().group();
            if (!r.deleted() && group != null) {
                members.computeIfAbsent(group.name(), k -> new ArrayList<>()).add(r.workload());
            }
        }
        Map<String, BudgetLedger.GroupView> views = new HashMap<>();
        members.forEach((name, ws) -> views.put(name, new BudgetLedger.GroupView(name,
                ws.stream().map(ResolvedWorkload::groupBudget).distinct().toList(),
                ws.stream().map(ResolvedWorkload::id).collect(Collectors.toSet()))));
        groups = Map.copyOf(views);
    }

    /** Marks {@code id} deleted at {@code at} (its last version is kept, so its open windows are still released). */
    public Registration delete(String id, long at) {
        Registration prior = current.get(id);
        if (prior == null || prior.deleted()) {
            return prior;
        }
        Registration r = new Registration(id, prior.contentHash(), prior.since(), prior.workload(), at);
        makeCurrent(r);
        groupsChanged();
        return r;
    }

    /**
     * The resolved version with {@code contentHash}, or {@code null} if this instance has never seen it.
     *
     * @throws BadSpecException if its stored spec is unusable
     */
    public ResolvedWorkload byHash(String contentHash) {
        ResolvedWorkload w = inUse.get(contentHash);
        if (w != null) {
            return w;
        }
        w = cache.ifPresent(contentHash);
        if (w != null) {
            return w;
        }
        String json = specs.get(contentHash);
        if (json == null) {
            json = specStore.apply(contentHash);
        }
        return json == null ? null : resolve(json, contentHash);
    }

    private ResolvedWorkload resolve(String specJson, String contentHash) {
        WorkloadSpec spec;
        try {
            spec = WorkloadSpecParser.parse(JSON.readValue(specJson, Map.class));
        } catch (JsonProcessingException e) {
            throw new BadSpecException("workload spec is not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new BadSpecException(e.getMessage(), e);
        }
        if (spec.mechanism() == MechanismId.AUTO) {
            throw new BadSpecException("mechanism: auto must be resolved before registration (privacy-gateway"
                    + " register resolves it with the planner)", null);
        }
        String actual = CanonicalForm.contentHash(spec);
        if (!actual.equals(contentHash)) {
            throw new BadSpecException("contentHash: the record declares " + contentHash + " but the spec hashes to "
                    + actual, null);
        }
        ResolvedWorkload known = inUse.get(actual);
        if (known != null) {
            return known; // a version in use again (registered again): never built twice
        }
        try {
            return cache.get(spec, actual);
        } catch (IllegalArgumentException e) {
            throw new BadSpecException(e.getMessage(), e);
        }
    }
}
