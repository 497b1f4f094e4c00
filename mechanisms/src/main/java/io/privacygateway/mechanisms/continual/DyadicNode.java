package io.privacygateway.mechanisms.continual;

import io.privacygateway.mechanisms.param.Require;
import java.util.ArrayList;
import java.util.List;

/**
 * A dyadic range of windows: node {@code (level ℓ, index j)} covers the window indexes
 * {@code [j·2^ℓ, (j+1)·2^ℓ − 1]}. A tree of depth {@code h} has the levels {@code 0..h}; a level-{@code h} node (a
 * root) covers {@code 2^h} windows and has no parent, so after {@code 2^h} windows the next root starts (a forest of
 * complete trees, one per {@code 2^h} windows).
 *
 * <p>The two facts the privacy argument and the running totals rest on, written once here:
 * <ul>
 *   <li>{@link #containing}: every window lies in exactly one node per level, so in exactly {@code h + 1}
 *       nodes.</li>
 *   <li>{@link #cover}: a range of windows {@code [a, t]} is the disjoint union of its <em>canonical cover</em>: the
 *       maximal nodes inside it, at most {@code 2h} nodes (at most 2 per level below {@code h}) plus the roots that
 *       fit.</li>
 * </ul>
 *
 * @param level the level ℓ, {@code 0 <= ℓ <= 62}
 * @param index the index j, {@code >= 0}
 */
public record DyadicNode(int level, long index) {
    public DyadicNode {
        Require.inRange("level", level, 0, 62);
        Require.inRange("index", index, 0, (Long.MAX_VALUE >> level) - 1);
    }

    /** The first window of the node. */
    public long start() {
        return index << level;
    }

    /** The last window of the node. */
    public long end() {
        return start() + (1L << level) - 1;
    }

    /** The number of windows the node covers, {@code 2^ℓ}. */
    public long size() {
        return 1L << level;
    }

    /** Whether the node is its parent's left child (its index is even). */
    public boolean isLeftChild() {
        return (index & 1) == 0;
    }

    /** The first window of the parent (the node's own start for a left child). */
    public long parentStart() {
        return (index >> 1) << (level + 1);
    }

    /** The {@code depth + 1} nodes that contain window {@code t}: one per level {@code 0..depth}. */
    public static List<DyadicNode> containing(long t, int depth) {
        checkDepth(depth);
        Require.inRange("t", t, 0, Long.MAX_VALUE >> 1);
        List<DyadicNode> out = new ArrayList<>(depth + 1);
        for (int l = 0; l <= depth; l++) {
            out.add(new DyadicNode(l, t >> l));
        }
        return out;
    }

    /** The nodes whose last window is {@code t}, lowest level first: levels ℓ with {@code 2^ℓ | t + 1}, up to depth. */
    public static List<DyadicNode> completedAt(long t, int depth) {
        checkDepth(depth);
        Require.inRange("t", t, 0, Long.MAX_VALUE >> 1);
        List<DyadicNode> out = new ArrayList<>();
        for (int l = 0; l <= depth && ((t + 1) & ((1L << l) - 1)) == 0; l++) {
            out.add(new DyadicNode(l, t >> l));
        }
        return out;
    }

    /**
     * The canonical cover of {@code [a, t]}: from {@code a} on, the highest node (level at most {@code depth}) that
     * starts there and ends by {@code t}, repeatedly. These are exactly the nodes inside {@code [a, t]} whose parent is
     * not inside (or that are roots), in increasing order of start.
     */
    public static List<DyadicNode> cover(long a, long t, int depth) {
        checkDepth(depth);
        Require.inRange("a", a, 0, Long.MAX_VALUE >> 1);
        Require.inRange("t", t, a, Long.MAX_VALUE >> 1);
        List<DyadicNode> out = new ArrayList<>();
        long s = a;
        while (s <= t) {
            int l = 0;
            while (l < depth && (s & ((1L << (l + 1)) - 1)) == 0 && s + (1L << (l + 1)) - 1 <= t) {
                l++;
            }
            out.add(new DyadicNode(l, s >> l));
            s += 1L << l;
        }
        return out;
    }

    /**
     * Whether a completed node belongs to the canonical cover of {@code [a, t]} for <em>every</em> {@code t} from its
     * end on: it lies inside ({@code start >= a}) and its parent never will (it is a root, or the parent starts before
     * {@code a}).
     */
    public boolean permanentlyIn(long a, int depth) {
        return start() >= a && (level == depth || parentStart() < a);
    }

    static void checkDepth(int depth) {
        Require.inRange("depth", depth, 0, ContinualSettings.MAX_DEPTH);
    }
}
