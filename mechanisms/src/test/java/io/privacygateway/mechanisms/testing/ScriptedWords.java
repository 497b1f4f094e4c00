package io.privacygateway.mechanisms.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.privacygateway.mechanisms.random.RandomBits;

/**
 * A {@link RandomBits} that returns the given words in order, fails the test when asked for more, and counts
 * how many were drawn (so a test can also require every scripted word to be used).
 */
public final class ScriptedWords implements RandomBits {
    private final long[] words;
    private int drawn;

    public ScriptedWords(long... words) {
        this.words = words.clone();
    }

    @Override
    public long nextLong() {
        assertThat(drawn).as("words drawn").isLessThan(words.length);
        return words[drawn++];
    }

    /** How many words were drawn so far. */
    public int drawn() {
        return drawn;
    }
}
