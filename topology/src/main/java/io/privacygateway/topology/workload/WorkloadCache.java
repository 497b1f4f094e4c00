package io.privacygateway.topology.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.privacygateway.mechanisms.central.CentralPipeline;
import io.privacygateway.mechanisms.pipeline.LocalPipeline;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.Workload;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds and caches {@link ActiveWorkload}s by content hash. Building a pipeline can be costly (nets,
 * Gaussian widths), so it happens once per workload version per process; the cache is shared by all
 * stream threads and by the release step, which may still need a version that the workloads topic has
 * since replaced.
 */
public final class WorkloadCache {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, ActiveWorkload> byHash = new ConcurrentHashMap<>();

    /** Thrown when a registered spec is unusable (the message names the field). */
    public static final class BadSpecException extends RuntimeException {
        public BadSpecException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The active workload for a spec in canonical JSON with the given content hash.
     *
     * @throws BadSpecException if the JSON does not parse, does not validate, names {@code auto}, or
     *     its content hash differs from the declared one
     */
    public ActiveWorkload get(String specJson, String contentHash) {
        ActiveWorkload hit = byHash.get(contentHash);
        if (hit != null) {
            return hit;
        }
        return byHash.computeIfAbsent(contentHash, h -> build(specJson, h));
    }

    /** A previously built workload version, or {@code null}. */
    public ActiveWorkload byHash(String contentHash) {
        return byHash.get(contentHash);
    }

    static ActiveWorkload build(String specJson, String contentHash) {
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
                    + " registers workloads resolved by the planner)", null);
        }
        Workload w = Workload.of(spec);
        if (!w.contentHash().equals(contentHash)) {
            throw new BadSpecException("contentHash: the record declares " + contentHash + " but the spec hashes to "
                    + w.contentHash(), null);
        }
        LocalPipeline local = spec.mode() == Mode.LOCAL ? LocalPipeline.of(w) : null;
        CentralPipeline central = spec.mode() == Mode.CENTRAL ? CentralPipeline.of(w) : null;
        return new ActiveWorkload(spec, w, local, central);
    }
}
