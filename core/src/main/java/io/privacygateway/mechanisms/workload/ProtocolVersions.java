package io.privacygateway.mechanisms.workload;

import java.util.List;

/**
 * The version of each local protocol, in one place (docs/wire-format.md, "Protocol versions").
 *
 * <p>A local mechanism's <em>protocol</em> is everything a device and the gateway derive from a spec to randomize and to
 * decode a report: the payload encoding and every derived parameter (a strategy, a branching factor, a table, a
 * constant). Each local mechanism numbers its protocol from 1; any change to what it derives must add a new version
 * here (and keep the old derivation while gateways may still serve it). A report carries the version its device
 * derived with ({@code LocalReport.protocolVersion}), the spec fixes the version the gateway serves
 * ({@link WorkloadSpec#protocolVersion()}), and the gateway rejects a report of any other version
 * ({@code PROTOCOL_MISMATCH}) instead of decoding it with another version's rules.
 *
 * <table>
 * <caption>Versions</caption>
 * <tr><th>mechanism</th><th>current</th><th>derivable</th><th>what changed</th></tr>
 * <tr><td>tree</td><td>2</td><td>1, 2</td><td>1: branching factor minimising the variance of all ranges (e.g. B = 6
 * for 32 buckets); 2: minimising the variance of the workload's own queries (B = 2 for a CDF of 32 buckets)</td></tr>
 * <tr><td>factorization</td><td>3</td><td>1, 2, 3</td><td>{@code pgw-wfm-v1}: K = p/(e^ε+1); v2: K searched;
 * v3: strategy built for min(ε, 6)</td></tr>
 * <tr><td>every other local mechanism</td><td>1</td><td>1</td><td>unchanged since it was introduced</td></tr>
 * </table>
 *
 * <p>Central-mode mechanisms have no protocol: devices send raw values and every parameter lives at the gateway, so
 * their version is {@value #NONE} and central reports carry none. {@link MechanismId#AUTO} has none until resolved.
 */
public final class ProtocolVersions {
    /** The version of a mechanism without a device protocol (central mode, or {@code auto} before resolution). */
    public static final int NONE = 0;
    /** The version carried by a report from a build before protocol versions existed (the Avro default). */
    public static final int LEGACY = 0;

    private ProtocolVersions() {}

    /** Whether the mechanism has a device protocol: a named local-mode mechanism. */
    public static boolean hasProtocol(MechanismId m) {
        return m != null && m.mode() == Mode.LOCAL;
    }

    /** The version this code derives by default for {@code m}; {@value #NONE} without a protocol. */
    public static int current(MechanismId m) {
        if (!hasProtocol(m)) {
            return NONE;
        }
        return switch (m) {
            case TREE, LOCAL_CHAINING -> 2;
            case FACTORIZATION -> 3;
            default -> 1;
        };
    }

    /**
     * The versions this code can still derive for {@code m} (ascending, the current last): a gateway can serve any of
     * them, a device can randomize with any of them. Empty without a protocol.
     */
    public static List<Integer> derivable(MechanismId m) {
        if (!hasProtocol(m)) {
            return List.of();
        }
        return switch (m) {
            case TREE, LOCAL_CHAINING -> List.of(1, 2);
            case FACTORIZATION -> List.of(1, 2, 3);
            default -> List.of(1);
        };
    }

    /** Whether this code can derive version {@code v} of {@code m}'s protocol. */
    public static boolean isDerivable(MechanismId m, int v) {
        return derivable(m).contains(v);
    }

    /**
     * The version a {@link #LEGACY} report (sent by a build before protocol versions) of {@code m} was derived with,
     * or {@code -1} when that is ambiguous: version 1 for a mechanism whose derivation never changed (only version 1
     * exists); {@code -1} for tree and factorization, whose earlier builds derived different parameters under the
     * same content hash, so a legacy report of theirs cannot be decoded safely.
     */
    public static int legacyVersion(MechanismId m) {
        return derivable(m).equals(List.of(1)) ? 1 : -1;
    }

    /**
     * Whether a report declaring {@code reported} may be decoded by a gateway serving {@code served} of {@code m}:
     * equal versions, or a legacy report where legacy unambiguously means the served version.
     */
    public static boolean accepts(MechanismId m, int served, int reported) {
        if (reported == served) {
            return true;
        }
        return reported == LEGACY && legacyVersion(m) == served;
    }

    /** The wire name of a protocol version, e.g. {@code tree/2}; {@code tree/legacy} for {@link #LEGACY}. */
    public static String wireName(MechanismId m, int v) {
        return m.wireName() + "/" + (v == LEGACY ? "legacy" : Integer.toString(v));
    }

    /**
     * Checks the version a spec declares for its mechanism and returns the one it runs: {@code declared} when it is a
     * version this code derives, the current version when {@code declared} is {@value #NONE} (not declared).
     *
     * @throws InvalidWorkloadException naming {@code protocolVersion} for a version this code cannot derive, or a
     *     version declared for a mechanism without a protocol (central mode, or {@code auto})
     */
    static int resolve(MechanismId m, int declared) {
        if (!hasProtocol(m)) {
            if (declared != NONE) {
                throw new InvalidWorkloadException("protocolVersion", m == MechanismId.AUTO
                        ? "needs a named local mechanism (auto resolves to its mechanism's current version), got "
                                + declared
                        : "central-mode mechanisms have no device protocol; remove it (got " + declared + ")");
            }
            return NONE;
        }
        if (declared == NONE) {
            return current(m);
        }
        if (!isDerivable(m, declared)) {
            throw new InvalidWorkloadException("protocolVersion", m.wireName() + " protocol version " + declared
                    + " is not one this build can derive (it derives " + derivable(m) + ", current "
                    + current(m) + ")");
        }
        return declared;
    }
}
