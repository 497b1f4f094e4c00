package io.privacygateway.mechanisms.workload;

/**
 * The size limits a workload spec is checked against when it is parsed, owned by the spec (the ground floor) and
 * honoured by the gateway's mechanisms that rely on them (their constants are these). A device and the gateway
 * accept exactly the same specs.
 */
public final class WorkloadLimits {
    /** Largest number of attributes over which the gateway keeps a dense array of cells ({@code 2^26} doubles, 512 MiB). */
    public static final int MAX_DENSE_ATTRIBUTES = 26;
    /** Most attributes of a synthetic-data workload (records are ints; measured up to 20). */
    public static final int SYNTHETIC_MAX_ATTRIBUTES = 24;
    /** Largest marginal order of a synthetic-data workload (its noise bound enumerates {@code 2^(2^s)} sign patterns). */
    public static final int SYNTHETIC_MAX_WAY = 4;
    /** Most attributes of a wide marginal workload (values are bit vectors of up to 4 words). */
    public static final int WIDE_MAX_ATTRIBUTES = 256;
    /** Largest marginal order of a wide marginal workload. */
    public static final int WIDE_MAX_WAY = 8;
    /** Most marginal cells {@code C(d,k)·2^k} of a wide workload (an aggregate of at most 16 MiB of counts). */
    public static final int WIDE_MAX_QUERIES = 1 << 21;

    private WorkloadLimits() {}
}
