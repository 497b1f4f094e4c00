package io.privacygateway.mechanisms.continual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Exact checks of the tree structure the privacy argument and the running totals rest on. */
class DyadicNodeTest {

    /** Every window lies in exactly depth + 1 nodes, one per level, and each of them contains it. */
    @Test
    void everyWindowLiesInOneNodePerLevel() {
        for (int depth = 0; depth <= 6; depth++) {
            for (long t = 0; t < 3L << depth; t++) {
                List<DyadicNode> nodes = DyadicNode.containing(t, depth);
                assertThat(nodes).hasSize(depth + 1);
                for (int l = 0; l <= depth; l++) {
                    DyadicNode v = nodes.get(l);
                    assertThat(v.level()).isEqualTo(l);
                    assertThat(t).isBetween(v.start(), v.end());
                }
            }
        }
    }

    /** The nodes completing at t are exactly those whose last window is t, and each node completes exactly once. */
    @Test
    void nodesCompleteAtTheirLastWindowOnce() {
        int depth = 4;
        java.util.Set<DyadicNode> seen = new java.util.HashSet<>();
        for (long t = 0; t < 5L << depth; t++) {
            for (DyadicNode v : DyadicNode.completedAt(t, depth)) {
                assertThat(v.end()).isEqualTo(t);
                assertThat(seen.add(v)).isTrue();
            }
            for (DyadicNode v : DyadicNode.containing(t, depth)) {
                assertThat(seen.contains(v)).isEqualTo(v.end() <= t);
            }
        }
    }

    /**
     * The canonical cover of every range is a partition of it into maximal nodes: disjoint, covering every window
     * once, each node's parent outside the range (or a root), and at most 2h nodes plus one per extra root.
     */
    @Test
    void coverIsAPartitionIntoMaximalNodes() {
        for (int depth = 0; depth <= 5; depth++) {
            long span = 3L << depth;
            for (long a = 0; a < span; a++) {
                for (long t = a; t < span; t++) {
                    List<DyadicNode> cover = DyadicNode.cover(a, t, depth);
                    long next = a;
                    for (DyadicNode v : cover) {
                        assertThat(v.start()).isEqualTo(next);
                        next = v.end() + 1;
                        boolean parentInside = v.level() < depth && v.parentStart() >= a
                                && v.parentStart() + (2L << v.level()) - 1 <= t;
                        assertThat(parentInside).as("maximal %s in [%d, %d]", v, a, t).isFalse();
                    }
                    assertThat(next).isEqualTo(t + 1);
                    int d = depth;
                    long roots = cover.stream().filter(v -> v.level() == d).count();
                    assertThat(cover.size() - roots).isLessThanOrEqualTo(2L * depth);
                }
            }
        }
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> DyadicNode.cover(5, 4, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DyadicNode.containing(-1, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DyadicNode.containing(0, 41)).isInstanceOf(IllegalArgumentException.class);
    }
}
