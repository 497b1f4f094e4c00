package io.privacygateway.schemas.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.param.Epsilon;
import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Domain;
import io.privacygateway.mechanisms.workload.MechanismId;
import io.privacygateway.mechanisms.workload.NeighbourRelation;
import io.privacygateway.mechanisms.workload.QueryFamily;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Registration refuses workloads whose records would not fit in a Kafka record (issue: valid workloads exceeded
 * Kafka's limits — a Hadamard partial at k = 65,536, central budget entries of L × windows per period), naming the
 * record; ordinary workloads fit.
 */
class RecordSizesTest {

    private static List<String> labels(int k) {
        return IntStream.range(0, k).mapToObj(i -> "v" + i).toList();
    }

    private static WorkloadSpec.Builder histogram(int k) {
        return WorkloadSpec.builder().id("sizes").version(1).family(QueryFamily.HISTOGRAM)
                .domain(new Domain.Labels(labels(k))).local(Epsilon.of(1))
                .budget(Epsilon.of(4), Duration.ofDays(1)).window(Duration.ofMinutes(1), Duration.ofSeconds(10))
                .expectedReportsPerWindow(100_000);
    }

    @Test
    void anOrdinaryWorkloadFits() {
        ResolvedWorkload w = ResolvedWorkload.of(histogram(16).mechanism(MechanismId.GRR).build());
        RecordSizes.Sizes s = RecordSizes.of(w);
        assertThat(s.overLimit(RecordSizes.MAX_RECORD_BYTES)).isNull();
        assertThat(s.answerBytes()).isPositive().isLessThan(16 * 1024);
        RecordSizes.check(w);
    }

    @Test
    void aHadamardResponseOverSixtyFiveThousandValuesIsRefusedByItsAggregate() {
        // one-way marginals over 16 attributes: 65,536 universe values, 32 queries; Hadamard response keeps
        // 131,072 counts per window (1 MiB)
        List<String> attributes = IntStream.range(0, 16).mapToObj(i -> "a" + i).toList();
        ResolvedWorkload w = ResolvedWorkload.of(histogram(2).family(QueryFamily.MARGINALS)
                .domain(new Domain.Attributes(attributes)).marginalWay(1).mechanism(MechanismId.HADAMARD_RESPONSE)
                .build());
        RecordSizes.Sizes s = RecordSizes.of(w);
        assertThat(s.partialBytes()).isGreaterThan(RecordSizes.MAX_RECORD_BYTES);
        assertThatThrownBy(() -> RecordSizes.check(w)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("domain: workload sizes is too large for Kafka records")
                .hasMessageContaining("bytes");
    }

    @Test
    void aCentralBudgetEntryOfManyWindowsAndContributionsIsRefused() {
        WorkloadSpec spec = WorkloadSpec.builder().id("sizes").version(1).family(QueryFamily.HISTOGRAM)
                .domain(new Domain.Labels(labels(4))).central(Epsilon.of(0.001), NeighbourRelation.ADD_REMOVE, 256)
                .mechanism(MechanismId.LAPLACE).budget(Epsilon.of(40), Duration.ofDays(1))
                .window(Duration.ofSeconds(1), Duration.ZERO).expectedReportsPerWindow(1000).build();
        RecordSizes.Sizes s = RecordSizes.of(ResolvedWorkload.of(spec));
        assertThat(s.budgetEntryBytes()).as("86,401 windows a day (40,000 paid for), each with its 256 contribution slots")
                .isGreaterThan(RecordSizes.MAX_RECORD_BYTES);
        assertThat(s.overLimit(RecordSizes.MAX_RECORD_BYTES)).startsWith("a device's budget entry could reach");
        // the same workload with day-long windows fits
        RecordSizes.Sizes daily = RecordSizes.of(ResolvedWorkload.of(spec.toBuilder()
                .window(Duration.ofDays(1), Duration.ofMinutes(1)).build()));
        assertThat(daily.overLimit(RecordSizes.MAX_RECORD_BYTES)).isNull();
    }
}
