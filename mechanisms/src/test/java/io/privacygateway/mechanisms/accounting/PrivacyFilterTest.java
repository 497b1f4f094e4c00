package io.privacygateway.mechanisms.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.mechanisms.accounting.PrivacyFilter.Decision;
import io.privacygateway.mechanisms.param.LogDelta;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PrivacyFilterTest {
    private static final Instant T0 = Instant.parse("2024-05-01T00:00:00Z");

    private static PrivacyEvent pure(double eps, int second) {
        return PrivacyEvent.of("rr", new PrivacyCost.Pure(eps), T0.plusSeconds(second));
    }

    private static PrivacyEvent zcdp(double rho, int second) {
        return PrivacyEvent.of("gaussian", new PrivacyCost.Zcdp(rho), T0.plusSeconds(second));
    }

    @Test
    void exactBudgetIsAcceptedThenTheFilterStaysRefused() {
        PrivacyFilter f = PrivacyFilter.create(new PrivacyCost.Pure(1.0));
        assertThat(f.tryCharge(pure(0.5, 1))).isEqualTo(Decision.ACCEPTED);
        assertThat(f.tryCharge(pure(0.25, 2))).isEqualTo(Decision.ACCEPTED);
        assertThat(f.remaining()).isEqualTo(0.25);
        assertThat(f.tryCharge(pure(0.25, 3))).isEqualTo(Decision.ACCEPTED); // exactly the budget
        assertThat(f.spent()).isEqualTo(1.0);
        assertThat(f.remaining()).isZero();
        assertThat(f.isHalted()).isFalse();
        assertThat(f.tryCharge(pure(Double.MIN_VALUE, 4))).isEqualTo(Decision.REFUSED_OVER_BUDGET);
        assertThat(f.isHalted()).isTrue();
        assertThat(f.ledger().sealedAt()).contains(T0.plusSeconds(4));
        // Every later charge is refused, however small, including a zero-cost one.
        assertThat(f.tryCharge(pure(Double.MIN_VALUE, 5))).isEqualTo(Decision.REFUSED_HALTED);
        assertThat(f.tryCharge(pure(0, 6))).isEqualTo(Decision.REFUSED_HALTED);
        assertThat(f.ledger().size()).isEqualTo(3); // refusals are not recorded as events
        assertThat(f.spentCost()).isEqualTo(new PrivacyCost.Pure(1.0));
        assertThat(Decision.ACCEPTED.accepted()).isTrue();
        assertThat(Decision.REFUSED_HALTED.accepted()).isFalse();
    }

    @Test
    void aRefusedLargeChargeHaltsEvenThoughSmallerOnesWouldFit() {
        PrivacyFilter f = PrivacyFilter.create(new PrivacyCost.Pure(1.0));
        assertThat(f.tryCharge(pure(0.5, 1))).isEqualTo(Decision.ACCEPTED);
        assertThat(f.tryCharge(pure(0.75, 2))).isEqualTo(Decision.REFUSED_OVER_BUDGET);
        assertThat(f.tryCharge(pure(0.1, 3))).isEqualTo(Decision.REFUSED_HALTED); // would fit, still refused
        assertThat(f.spent()).isEqualTo(0.5);
        assertThat(f.remaining()).isEqualTo(0.5);
    }

    @Test
    void decimalLookalikesAreJudgedOnTheirExactBinaryValue() {
        // The double 0.1 is 0.1000000000000000055511…: nine of them are below 1, ten are above 1 exactly.
        PrivacyFilter f = PrivacyFilter.create(new PrivacyCost.Pure(1.0));
        for (int i = 0; i < 9; i++) {
            assertThat(f.tryCharge(pure(0.1, i))).isEqualTo(Decision.ACCEPTED);
        }
        assertThat(f.tryCharge(pure(0.1, 9))).isEqualTo(Decision.REFUSED_OVER_BUDGET);
        // A budget stated as the exact double sum admits all ten.
        PrivacyFilter g = PrivacyFilter.create(new PrivacyCost.Pure(Math.nextUp(1.0)));
        for (int i = 0; i < 10; i++) {
            assertThat(g.tryCharge(pure(0.1, i))).isEqualTo(Decision.ACCEPTED);
        }
    }

    @Test
    void zcdpBudgetMixesPureAndZcdpCharges() {
        PrivacyFilter f = PrivacyFilter.create(new PrivacyCost.Zcdp(1.0));
        assertThat(f.tryCharge(pure(1.0, 1))).isEqualTo(Decision.ACCEPTED);   // 1²/2 = 0.5
        assertThat(f.tryCharge(zcdp(0.375, 2))).isEqualTo(Decision.ACCEPTED);
        assertThat(f.tryCharge(pure(0.5, 3))).isEqualTo(Decision.ACCEPTED);   // 0.125: total exactly 1
        assertThat(f.spent()).isEqualTo(1.0);
        assertThat(f.tryCharge(zcdp(1e-12, 4))).isEqualTo(Decision.REFUSED_OVER_BUDGET);
        assertThat(f.tryCharge(zcdp(1e-300, 5))).isEqualTo(Decision.REFUSED_HALTED);
        assertThat(f.spentCost()).isEqualTo(new PrivacyCost.Zcdp(1.0));
        assertThat(f.capacity()).isEqualTo(1.0);
    }

    @Test
    void approximateBudgetIsAZcdpBudgetAtTheLargestCertifiedRho() {
        LogDelta delta = LogDelta.ofDelta(1e-6);
        PrivacyFilter f = PrivacyFilter.create(new PrivacyCost.Approximate(1.0, delta));
        double capacity = f.capacity();
        assertThat(capacity).isEqualTo(Conversions.largestRho(1.0, delta))
                .isGreaterThan(Conversions.largestRhoStandard(1.0, delta));
        assertThat(f.tryCharge(zcdp(capacity / 2, 1))).isEqualTo(Decision.ACCEPTED);
        assertThat(f.tryCharge(zcdp(capacity / 2, 2))).isEqualTo(Decision.ACCEPTED);
        PrivacyCost.Approximate spent = (PrivacyCost.Approximate) f.spentCost();
        assertThat(spent.epsilon()).isLessThanOrEqualTo(1.0);
        assertThat(spent.logDelta()).isEqualTo(delta);
        assertThat(f.tryCharge(pure(1e-9, 3))).isEqualTo(Decision.REFUSED_OVER_BUDGET);
    }

    @Test
    void chargesOfTheWrongKindAreErrorsAndChangeNothing() {
        PrivacyFilter pureFilter = PrivacyFilter.create(new PrivacyCost.Pure(1));
        assertThatThrownBy(() -> pureFilter.tryCharge(zcdp(0.1, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pure").hasMessageContaining("Zcdp");
        assertThatThrownBy(() -> pureFilter.tryCharge(PrivacyEvent.of("p", new PrivacyCost.Approximate(0.1, new LogDelta(-20)), T0)))
                .isInstanceOf(IllegalArgumentException.class);
        PrivacyFilter zcdpFilter = PrivacyFilter.create(new PrivacyCost.Zcdp(1));
        assertThatThrownBy(() -> zcdpFilter.tryCharge(PrivacyEvent.of("p", new PrivacyCost.Approximate(0.1, new LogDelta(-20)), T0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zCDP");
        assertThatThrownBy(() -> zcdpFilter.tryCharge(null)).hasMessageContaining("event");
        assertThat(pureFilter.isHalted()).isFalse();
        assertThat(zcdpFilter.isHalted()).isFalse();
        assertThat(pureFilter.ledger().size()).isZero();
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, -0.0})
    void budgetsMustBePositive(double zero) {
        assertThatThrownBy(() -> PrivacyFilter.create(new PrivacyCost.Pure(zero))).hasMessageContaining("budget epsilon");
        assertThatThrownBy(() -> PrivacyFilter.create(new PrivacyCost.Zcdp(zero))).hasMessageContaining("budget rho");
        assertThatThrownBy(() -> PrivacyFilter.create(new PrivacyCost.Approximate(zero, new LogDelta(-5))))
                .hasMessageContaining("budget epsilon");
        assertThatThrownBy(() -> PrivacyFilter.create(null)).hasMessageContaining("budget");
        assertThatThrownBy(() -> PrivacyFilter.over(new PrivacyCost.Pure(1), null)).hasMessageContaining("ledger");
    }

    @Test
    void extremeBudgets() {
        PrivacyFilter tiny = PrivacyFilter.create(new PrivacyCost.Pure(Double.MIN_VALUE));
        assertThat(tiny.tryCharge(pure(Double.MIN_VALUE, 1))).isEqualTo(Decision.ACCEPTED);
        assertThat(tiny.tryCharge(pure(Double.MIN_VALUE, 2))).isEqualTo(Decision.REFUSED_OVER_BUDGET);
        PrivacyFilter huge = PrivacyFilter.create(new PrivacyCost.Zcdp(Double.MAX_VALUE));
        assertThat(huge.tryCharge(zcdp(Double.MAX_VALUE, 1))).isEqualTo(Decision.ACCEPTED);
        assertThat(huge.tryCharge(zcdp(Double.MIN_VALUE, 2))).isEqualTo(Decision.REFUSED_OVER_BUDGET);
        PrivacyFilter deep = PrivacyFilter.create(new PrivacyCost.Approximate(40, new LogDelta(-5000)));
        assertThat(deep.capacity()).isPositive();
        assertThat(deep.tryCharge(pure(40, 1))).isEqualTo(Decision.REFUSED_OVER_BUDGET); // 800 > ρ budget ≈ 0.08
    }

    @Test
    void aFilterOverAStoredLedgerResumesAndKeepsItsHalt() {
        PrivacyLedger ledger = new PrivacyLedger();
        ledger.append(pure(0.5, 1));
        ledger.append(pure(0.25, 2));
        PrivacyFilter f = PrivacyFilter.over(new PrivacyCost.Pure(1.0), ledger);
        assertThat(f.spent()).isEqualTo(0.75);
        assertThat(f.remaining()).isEqualTo(0.25);
        assertThat(f.tryCharge(pure(0.5, 3))).isEqualTo(Decision.REFUSED_OVER_BUDGET);
        // Stored and rebuilt (as a state store would): the rebuilt filter is still halted.
        PrivacyLedger stored = PrivacyLedger.fromBytes(ledger.toBytes());
        PrivacyFilter rebuilt = PrivacyFilter.over(new PrivacyCost.Pure(1.0), stored);
        assertThat(rebuilt.isHalted()).isTrue();
        assertThat(rebuilt.tryCharge(pure(0.01, 4))).isEqualTo(Decision.REFUSED_HALTED);
        // A ledger already over a (lowered) budget refuses the next charge and halts.
        PrivacyLedger open = new PrivacyLedger();
        open.append(pure(2, 1));
        PrivacyFilter lowered = PrivacyFilter.over(new PrivacyCost.Pure(1), open);
        assertThat(lowered.remaining()).isZero();
        assertThat(lowered.tryCharge(pure(0, 2))).isEqualTo(Decision.REFUSED_OVER_BUDGET);
        // A ledger with events the budget cannot account for is rejected.
        PrivacyLedger withZcdp = new PrivacyLedger();
        withZcdp.append(zcdp(0.1, 1));
        assertThatThrownBy(() -> PrivacyFilter.over(new PrivacyCost.Pure(1), withZcdp)).hasMessageContaining("cannot account");
        PrivacyLedger withApprox = new PrivacyLedger();
        withApprox.append(PrivacyEvent.of("p", new PrivacyCost.Approximate(0.1, new LogDelta(-20)), T0));
        assertThatThrownBy(() -> PrivacyFilter.over(new PrivacyCost.Zcdp(1), withApprox)).hasMessageContaining("cannot account");
    }

    /** 8 threads × 20,000 charges of 2^-12 against ε = 3: exactly 3·4096 = 12,288 accepted, one over-budget. */
    @Test
    void concurrentEqualChargesNeverOverspend() throws Exception {
        int threads = 8;
        int perThread = 20_000;
        double charge = 0x1p-12;
        PrivacyFilter f = PrivacyFilter.create(new PrivacyCost.Pure(3.0));
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger overBudget = new AtomicInteger();
        AtomicInteger halted = new AtomicInteger();
        runConcurrently(threads, t -> {
            for (int i = 0; i < perThread; i++) {
                switch (f.tryCharge(pure(charge, i))) {
                    case ACCEPTED -> accepted.incrementAndGet();
                    case REFUSED_OVER_BUDGET -> overBudget.incrementAndGet();
                    case REFUSED_HALTED -> halted.incrementAndGet();
                }
            }
        });
        assertThat(accepted.get()).isEqualTo(3 * 4096);
        assertThat(overBudget.get()).isEqualTo(1);
        assertThat(halted.get()).isEqualTo(threads * perThread - 3 * 4096 - 1);
        assertThat(f.spent()).isEqualTo(3.0);
        assertThat(f.ledger().size()).isEqualTo(3 * 4096);
    }

    /**
     * 8 threads × 5,000 charges of mixed sizes (dyadic and decimal-looking) against ρ = 2 with pure and zCDP
     * charges: the exact sum of accepted costs is ≤ 2, the single over-budget charge really would have
     * exceeded, and nothing is accepted after it.
     */
    @Test
    void concurrentMixedChargesNeverOverspend() throws Exception {
        int threads = 8;
        int perThread = 5_000;
        double[] sizes = {0x1p-10, 3 * 0x1p-11, 0.001, 0.0007, 1e-5, 0.0123};
        PrivacyFilter f = PrivacyFilter.create(new PrivacyCost.Zcdp(2.0));
        AtomicReference<PrivacyEvent> refused = new AtomicReference<>();
        AtomicInteger overBudget = new AtomicInteger();
        AtomicInteger accepted = new AtomicInteger();
        runConcurrently(threads, t -> {
            for (int i = 0; i < perThread; i++) {
                double size = sizes[(t + i) % sizes.length];
                PrivacyEvent e = (i % 3 == 0) ? pure(Math.sqrt(2 * size), i) : zcdp(size, i);
                Decision d = f.tryCharge(e);
                if (d == Decision.REFUSED_OVER_BUDGET) {
                    overBudget.incrementAndGet();
                    refused.set(e);
                } else if (d == Decision.ACCEPTED) {
                    accepted.incrementAndGet();
                }
            }
        });
        BigDecimal total = BigDecimal.ZERO;
        for (PrivacyEvent e : f.ledger().events()) {
            total = total.add(Composition.exactRho(0, e.cost()));
        }
        assertThat(overBudget.get()).isEqualTo(1);
        assertThat(f.ledger().size()).isEqualTo(accepted.get());
        assertThat(total).isLessThanOrEqualTo(new BigDecimal(2));
        assertThat(total.add(Composition.exactRho(0, refused.get().cost()))).isGreaterThan(new BigDecimal(2));
        assertThat(f.spent()).isLessThanOrEqualTo(2.0);
    }

    private interface Body {
        void run(int thread) throws Exception;
    }

    private static void runConcurrently(int threads, Body body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Void>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Callable<Void> task = () -> {
                    start.await();
                    body.run(id);
                    return null;
                };
                futures.add(pool.submit(task));
            }
            start.countDown();
            for (Future<Void> fut : futures) {
                fut.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
