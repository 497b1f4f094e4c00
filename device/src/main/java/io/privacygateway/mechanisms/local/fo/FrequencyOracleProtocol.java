package io.privacygateway.mechanisms.local.fo;

import io.privacygateway.mechanisms.coins.PublicCoins;
import io.privacygateway.mechanisms.coins.ReportCoordinates;
import io.privacygateway.mechanisms.linalg.PointSet;
import io.privacygateway.mechanisms.local.LocalProtocol;
import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.param.Require;
import io.privacygateway.mechanisms.random.SecretDraws;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.ProtocolVersions;
import io.privacygateway.mechanisms.workload.Workload;

/**
 * A {@link FrequencyOracle} over a workload's universe as a {@link LocalProtocol}: the device reports its
 * universe index through the oracle; the gateway estimates the universe histogram {@code p̂} and answers
 * every query linearly, {@code mean = Σ_x p̂_x Q(x)} ({@link Workload#answersOf}).
 *
 * <p><b>Guarantee.</b> That of the oracle: ε-LDP exactly per report, for every report coordinates. The
 * public base word of a report is {@code new PublicCoins(w.contentHash()).base(coordinates)}.
 *
 * <p>The estimate is the gateway's ({@code FrequencyOracleProtocolEstimator}, module {@code mechanisms}).
 */
public final class FrequencyOracleProtocol implements LocalProtocol {
    private final Workload workload;
    private final FrequencyOracle oracle;
    private final PublicCoins coins;

    /**
     * @param workload the workload; its universe size must equal the oracle's domain size
     * @param oracle the frequency oracle
     */
    public FrequencyOracleProtocol(Workload workload, FrequencyOracle oracle) {
        this.workload = Require.nonNull("workload", workload);
        this.oracle = Require.nonNull("oracle", oracle);
        if (oracle.domainSize() != workload.universeSize()) {
            throw new IllegalArgumentException("oracle domainSize must equal the workload's universe size "
                    + workload.universeSize() + ", got " + oracle.domainSize());
        }
        this.coins = new PublicCoins(workload.contentHash());
    }

    /**
     * The oracle {@code id} ({@link FrequencyOracles#create}) over the workload's universe; for
     * {@link MechanismId#FACTORIZATION}, the strategy optimised for the workload's answer vectors
     * ({@link FactorizationOracle#of}, cached); for {@link MechanismId#TREE}, the tree whose branching factor suits the
     * workload's own queries ({@link TreeMechanism#optimalBranching(Epsilon, PointSet)}); for
     * {@link MechanismId#FOURIER}, the Fourier oracle of the workload's attributes and marginal width.
     *
     * <p>Versions: when {@code id} is the spec's mechanism, the protocol version the spec declares
     * ({@link io.privacygateway.mechanisms.workload.WorkloadSpec#protocolVersion()}), else {@code id}'s current one.
     * Tree version 1 takes the branching factor of all ranges ({@link TreeMechanism#optimalBranching(int, Epsilon)}),
     * version 2 the workload's own queries'; factorization versions: {@link FactorizationOracle#FactorizationOracle(
     * PointSet, Epsilon, int)}.
     */
    public static FrequencyOracleProtocol of(Workload workload, MechanismId id, Epsilon epsilon) {
        Require.nonNull("workload", workload);
        int version = workload.spec().mechanism() == id ? workload.spec().protocolVersion()
                : ProtocolVersions.current(id);
        if (id == MechanismId.FACTORIZATION) {
            return new FrequencyOracleProtocol(workload, FactorizationOracle.of(workload.points(), epsilon, version));
        }
        if (id == MechanismId.TREE) {
            return new FrequencyOracleProtocol(workload, new TreeMechanism(workload.universeSize(), epsilon,
                    version == 1 ? TreeMechanism.optimalBranching(workload.universeSize(), epsilon)
                            : TreeMechanism.optimalBranching(epsilon, workload.points())));
        }
        if (id == MechanismId.FOURIER) {
            return new FrequencyOracleProtocol(workload, new FourierMarginals(
                    ((Domain.Attributes) workload.spec().domain()).names().size(),
                    workload.spec().marginalWay(), epsilon));
        }
        return new FrequencyOracleProtocol(workload, FrequencyOracles.create(id, workload.universeSize(), epsilon));
    }

    public FrequencyOracle oracle() {
        return oracle;
    }

    public Workload workload() {
        return workload;
    }

    @Override
    public MechanismId id() {
        return oracle.id();
    }

    @Override
    public Epsilon epsilon() {
        return oracle.epsilon();
    }

    @Override
    public int payloadBytes() {
        return oracle.payloadBytes();
    }

    /** The public base word of a report of this workload. */
    public long publicBase(ReportCoordinates coordinates) {
        return coins.base(Require.nonNull("coordinates", coordinates));
    }

    @Override
    public byte[] randomize(int value, ReportCoordinates coordinates, SecretDraws draws) {
        return oracle.randomize(value, publicBase(coordinates), Require.nonNull("secret", draws));
    }

    @Override
    public int stateLength() {
        return oracle.stateLength();
    }

    @Override
    public boolean accumulate(byte[] payload, ReportCoordinates coordinates, long[] state) {
        return oracle.accumulate(payload, publicBase(coordinates), state);
    }

    @Override
    public boolean accumulate(byte[] payload, String deviceId, long period, int sequence, long[] state) {
        ReportCoordinates.check(deviceId, period, sequence);
        return oracle.accumulate(payload, coins.base(deviceId, period, sequence), state);
    }
}
