package io.privacygateway.mechanisms.random;

import java.util.ArrayList;
import java.util.List;

/**
 * Test support: {@link SecretDraws} that forwards to another implementation and records every call
 * (kind and parameters) in an event list, so tests can check that the sequence of secret draws of a
 * randomizer does not depend on the device's value or on earlier outcomes. Other test code may add its
 * own events to the same list ({@link #note}) to interleave public work with the draws.
 */
public final class RecordingDraws implements SecretDraws {
    /** One recorded call: {@code kind} is {@code "bernoulli"} or {@code "uniformInt"}. */
    public record Draw(String kind, long parameter, int gridBits) {
        /** The call without its Bernoulli numerator (the part that sets its cost). */
        public Draw cost() {
            return kind.equals("bernoulli") ? new Draw(kind, -1, gridBits) : this;
        }
    }

    private final SecretDraws inner;
    private final List<Object> events;
    private final List<Object> outcomes = new ArrayList<>();

    /** Records into a fresh list. */
    public RecordingDraws(SecretDraws inner) {
        this(inner, new ArrayList<>());
    }

    /** Records into {@code events} (shared with other recorders of the same run). */
    public RecordingDraws(SecretDraws inner, List<Object> events) {
        this.inner = inner;
        this.events = events;
    }

    /** Over the words of a seeded generator. */
    public static RecordingDraws seeded(long seed) {
        return new RecordingDraws(ExactSampler.draws(new SeededRandomBits(seed)));
    }

    @Override
    public boolean bernoulli(long numerator, int gridBits) {
        events.add(new Draw("bernoulli", numerator, gridBits));
        boolean b = inner.bernoulli(numerator, gridBits);
        outcomes.add(b);
        return b;
    }

    @Override
    public int uniformInt(int n) {
        events.add(new Draw("uniformInt", n, 0));
        int v = inner.uniformInt(n);
        outcomes.add(v);
        return v;
    }

    /** Adds a non-draw event to the trace. */
    public void note(Object event) {
        events.add(event);
    }

    /** Every event, in order. */
    public List<Object> trace() {
        return List.copyOf(events);
    }

    /** The trace with Bernoulli numerators dropped ({@link Draw#cost()}); other events unchanged. */
    public List<Object> costTrace() {
        List<Object> out = new ArrayList<>(events.size());
        for (Object e : events) {
            out.add(e instanceof Draw d ? d.cost() : e);
        }
        return out;
    }

    /** The outcomes of the draws, in order (not part of the trace). */
    public List<Object> outcomes() {
        return List.copyOf(outcomes);
    }
}
