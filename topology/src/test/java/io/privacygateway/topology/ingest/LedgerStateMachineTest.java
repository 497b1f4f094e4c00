package io.privacygateway.topology.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.runtime.ResolvedWorkload;
import io.privacygateway.mechanisms.workload.Mode;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.topology.validate.RejectReason;
import io.privacygateway.topology.workload.Registration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A state-machine test of the ledger invariant: random interleavings of registrations (new versions changing ε,
 * period length, window, mode, L, group membership and group budget), deletions and re-registrations, reports
 * from several devices (valid, replayed, out of range, late), clock advances with the sweep that forgets charges,
 * and restarts from the stored ledgers, run against the gateway's admission path ({@link LedgerHarness}) and the
 * reference model ({@link LedgerModel}) side by side. After every step: the gateway never admits a report the
 * model refuses, and refuses one the model admits only when its ledger no longer holds charges the report's periods
 * would count (after a version lengthened a period or a window). A failing sequence is shrunk (commands removed while it still fails) and printed, to become a
 * named regression test.
 *
 * <p>CI runs {@value #SEQUENCES} sequences of {@value #STEPS} steps; {@code -Dledger.sequences=N
 * -Dledger.steps=M} runs a longer search.
 */
class LedgerStateMachineTest {
    static final int SEQUENCES = 300;
    static final int STEPS = 80;
    static final String[] IDS = {"w1", "w2", "w3"};
    static final String[] DEVICES = {"d1", "d2"};
    private static final String[] PERIODS = {"10s", "20s", "1m", "1h"};
    private static final String[] WINDOWS = {"5s", "10s", "20s", "1m"};

    /** One step of a sequence. */
    sealed interface Command permits Register, Delete, Report, Replay, Advance, Restart {}

    record Register(int workload, Mode mode, double epsilon, double budget, String period, String window,
            String group, double groupBudget, int contributions) implements Command {}

    record Delete(int workload) implements Command {}

    record Report(int device, int workload, long backMillis, int slot) implements Command {}

    record Replay(int earlier) implements Command {}

    record Advance(long millis) implements Command {}

    record Restart() implements Command {}

    /** The outcome of running a sequence. */
    record Run(String violation, int admitted, int conservative, Map<RejectReason, Integer> refusals) {}

    static List<Command> generate(SplittableRandom r, int steps) {
        List<Command> out = new ArrayList<>();
        List<Integer> registered = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            int k = r.nextInt(100);
            if (i == 0 || k < 12) {
                double eps = r.nextBoolean() ? 0.5 : 1.0;
                double budget = Math.max(eps, 1 + r.nextInt(3));
                String group = r.nextInt(3) == 0 ? null : r.nextBoolean() ? "g" : "h";
                int w = r.nextInt(IDS.length);
                registered.add(w);
                out.add(new Register(w, r.nextInt(3) == 0 ? Mode.CENTRAL : Mode.LOCAL, eps, budget,
                        PERIODS[r.nextInt(PERIODS.length)], WINDOWS[r.nextInt(WINDOWS.length)], group,
                        Math.max(eps, 1 + r.nextInt(3)), 1 + r.nextInt(2)));
            } else if (k < 15) {
                out.add(new Delete(r.nextInt(IDS.length)));
            } else if (k < 70) {
                int w = registered.isEmpty() || r.nextInt(10) == 0 ? r.nextInt(IDS.length)
                        : registered.get(r.nextInt(registered.size()));
                out.add(new Report(r.nextInt(DEVICES.length), w, r.nextLong(9_000), r.nextInt(10) == 0 ? 3
                        : r.nextInt(3)));
            } else if (k < 80) {
                out.add(new Replay(r.nextInt(Math.max(1, i))));
            } else if (k < 96) {
                long[] jumps = {500, 3_000, 15_000, 60_000, 3_600_000};
                out.add(new Advance(jumps[r.nextInt(jumps.length)]));
            } else {
                out.add(new Restart());
            }
        }
        return out;
    }

    /** Runs {@code commands} on a fresh gateway and model. */
    static Run run(List<Command> commands) {
        LedgerHarness h = new LedgerHarness();
        LedgerModel model = new LedgerModel();
        List<long[]> sent = new ArrayList<>(); // device, workload, event time, slot
        int admitted = 0;
        int conservative = 0;
        Map<RejectReason, Integer> refusals = new EnumMap<>(RejectReason.class);
        for (int step = 0; step < commands.size(); step++) {
            Command c = commands.get(step);
            if (c instanceof Register g) {
                try {
                    h.register(LedgerHarness.spec(IDS[g.workload()], g.mode(), g.epsilon(), g.budget(), g.period(),
                            g.window(), g.group(), g.group() == null ? null : g.groupBudget(), g.contributions()));
                } catch (RuntimeException e) {
                    // an invalid combination: refused at registration, as the gateway refuses it
                    if (Boolean.getBoolean("ledger.debug")) {
                        System.out.println("register refused: " + e);
                    }
                }
            } else if (c instanceof Delete d) {
                h.delete(IDS[d.workload()]);
            } else if (c instanceof Advance a) {
                h.advance(a.millis());
            } else if (c instanceof Restart) {
                h.restart();
            } else {
                long[] s;
                if (c instanceof Report r) {
                    s = new long[] {r.device(), r.workload(), h.now - r.backMillis(), r.slot()};
                } else {
                    int e = ((Replay) c).earlier();
                    if (e >= sent.size()) {
                        continue;
                    }
                    s = sent.get(e);
                }
                sent.add(s);
                String device = DEVICES[(int) s[0]];
                String id = IDS[(int) s[1]];
                long t = s[2];
                int slot = (int) s[3];
                Registration reg = h.catalog.current(id);
                LedgerModel.Report mr = reg == null || reg.deleted() || t < 0 ? null
                        : modelReport(h.catalog, reg.workload(), device, t, slot);
                boolean ok = h.send(device, id, t, slot);
                if (ok) {
                    admitted++;
                    if (mr == null || !model.allows(mr)) {
                        return new Run("step " + step + ": the gateway admitted " + c + " (" + device + " " + id
                                + " t=" + t + " slot " + slot + ") which the model refuses", admitted, conservative,
                                refusals);
                    }
                    model.admit(mr);
                } else {
                    refusals.merge(h.lastReason, 1, Integer::sum);
                    boolean budgetReason = switch (h.lastReason) {
                        case BUDGET_EXHAUSTED, GROUP_BUDGET_EXHAUSTED, DUPLICATE, CONTRIBUTION_LIMIT -> true;
                        default -> false;
                    };
                    if (budgetReason && mr != null && model.allows(mr)) {
                        // refused on incomplete information (forgotten charges): allowed, and nothing else may be
                        if (!h.lastMessage.contains("no longer held")) {
                            return new Run("step " + step + ": the gateway refused " + c + " (" + h.lastReason + ": "
                                    + h.lastMessage + ") which the model admits, with nothing forgotten",
                                    admitted, conservative, refusals);
                        }
                        conservative++;
                    }
                }
            }
        }
        return new Run(null, admitted, conservative, refusals);
    }

    static LedgerModel.Report modelReport(io.privacygateway.topology.workload.WorkloadCatalog catalog,
            ResolvedWorkload w, String device, long t, int slot) {
        WorkloadSpec s = w.spec();
        boolean central = s.mode() == Mode.CENTRAL;
        long from;
        long to;
        if (central) {
            from = Math.floorDiv(t, s.window().sizeMillis()) * s.window().sizeMillis();
            to = from + s.window().sizeMillis();
        } else {
            long p = s.budget().periodMillis();
            from = Math.floorDiv(t, p) * p;
            to = from + p;
        }
        List<LedgerModel.Budget> groupBudgets = new ArrayList<>();
        java.util.Set<String> members = java.util.Set.of();
        String group = null;
        if (s.budget().group() != null) {
            group = s.budget().group().name();
            // the model reads the catalog's current members and declarations from the registrations themselves
            members = new java.util.HashSet<>();
            for (Registration r : catalog.registrations()) {
                WorkloadSpec.Group g = r.workload().spec().budget().group();
                if (!r.deleted() && g != null && g.name().equals(group)) {
                    members.add(r.id());
                    groupBudgets.add(new LedgerModel.Budget(g.epsilonPerPeriod().exact(),
                            r.workload().spec().budget().periodMillis()));
                }
            }
        }
        return new LedgerModel.Report(device, w.id(), w.contentHash(), group, from, to, slot, w.slots(), central,
                s.epsilonPerCharge().exact(), new LedgerModel.Budget(s.budget().epsilonPerPeriod().exact(),
                        s.budget().periodMillis()), groupBudgets, members);
    }

    /** Removes commands one at a time while the sequence still fails, until no single removal keeps it failing. */
    static List<Command> shrink(List<Command> failing) {
        List<Command> cur = new ArrayList<>(failing);
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int i = cur.size() - 1; i >= 0; i--) {
                List<Command> shorter = new ArrayList<>(cur);
                shorter.remove(i);
                if (run(shorter).violation() != null) {
                    cur = shorter;
                    progress = true;
                }
            }
        }
        return cur;
    }

    @Test
    void theGatewayNeverAdmitsWhatTheModelRefuses() {
        int sequences = Integer.getInteger("ledger.sequences", SEQUENCES);
        int steps = Integer.getInteger("ledger.steps", STEPS);
        long seed = Long.getLong("ledger.seed", 20261129L);
        int admitted = 0;
        int conservative = 0;
        Map<RejectReason, Integer> refusals = new EnumMap<>(RejectReason.class);
        for (int i = 0; i < sequences; i++) {
            List<Command> commands = generate(new SplittableRandom(seed + i), steps);
            Run run = run(commands);
            if (run.violation() != null) {
                List<Command> small = shrink(commands);
                throw new AssertionError("sequence " + i + " (seed " + (seed + i) + "): " + run.violation()
                        + "\nshrunk to " + small.size() + " commands: " + small + "\n" + run(small).violation());
            }
            admitted += run.admitted();
            conservative += run.conservative();
            run.refusals().forEach((k, v) -> refusals.merge(k, v, Integer::sum));
        }
        System.out.printf("ledger state machine: %d sequences x %d steps, %d reports admitted, refused %s,"
                + " %d refused on incomplete information where the model would admit%n", sequences, steps, admitted,
                refusals, conservative);
        assertThat(admitted).as("the sequences exercise admissions").isGreaterThan(sequences);
        assertThat(refusals.getOrDefault(RejectReason.BUDGET_EXHAUSTED, 0)
                + refusals.getOrDefault(RejectReason.GROUP_BUDGET_EXHAUSTED, 0)).as("and budget refusals").isPositive();
    }

    /** The shrinker itself: "some report is admitted" shrinks a sequence to a registration and one report. */
    @Test
    void aFailingSequenceShrinksToItsEssentials() {
        List<Command> commands = generate(new SplittableRandom(7), 40);
        Run run = run(commands);
        assertThat(run.violation()).isNull();
        java.util.function.Predicate<List<Command>> admits = cmds -> run(cmds).admitted() > 0;
        List<Command> small = shrinkAgainst(commands, admits);
        assertThat(small.size()).isLessThan(commands.size());
        assertThat(small.get(0)).isInstanceOf(Register.class);
        assertThat(small.get(small.size() - 1)).isInstanceOf(Report.class);
        for (int i = 0; i < small.size(); i++) { // minimal: no single command can go
            List<Command> shorter = new ArrayList<>(small);
            shorter.remove(i);
            assertThat(admits.test(shorter)).isFalse();
        }
    }

    private static List<Command> shrinkAgainst(List<Command> start, java.util.function.Predicate<List<Command>> fails) {
        List<Command> cur = new ArrayList<>(start);
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int i = cur.size() - 1; i >= 0; i--) {
                List<Command> shorter = new ArrayList<>(cur);
                shorter.remove(i);
                if (fails.test(shorter)) {
                    cur = shorter;
                    progress = true;
                }
            }
        }
        return cur;
    }

}
