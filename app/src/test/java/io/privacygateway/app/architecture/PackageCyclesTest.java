package io.privacygateway.app.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The package graph of the production code (every module {@code app} runs on: core, device, mechanisms, schemas,
 * topology, client, client-kafka, ingest, app) has no cycle. A cycle is a strongly connected set of packages (an
 * edge: a class of one package uses a class of another, by the compiled classes). The list of known cycles is empty
 * since the last ones went (issue 32); a new cycle fails this test. Should one ever have to be accepted for a while,
 * it is listed with the step that removes it, and a listed one that is gone fails too.
 */
class PackageCyclesTest {
    private static final String ROOT = "io.privacygateway.";

    /** Accepted cycles, as sorted package names without the root (none). */
    private static final Set<Set<String>> KNOWN = Set.of();

    @Test
    void packageCyclesOnlyShrink() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.privacygateway");
        assertThat(classes.containPackage("io.privacygateway.topology.release")).isTrue();
        assertThat(classes.containPackage("io.privacygateway.mechanisms.local.fo")).isTrue();
        Map<String, Set<String>> graph = new TreeMap<>();
        for (JavaClass c : classes) {
            String from = c.getPackageName();
            graph.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = d.getTargetClass().getPackageName();
                if (to.startsWith(ROOT) && !to.equals(from) && !d.getTargetClass().getName().contains("package-info")) {
                    graph.get(from).add(to);
                }
            }
        }
        Set<Set<String>> cycles = new HashSet<>();
        for (Set<String> scc : stronglyConnected(graph)) {
            if (scc.size() > 1) {
                Set<String> names = new TreeSet<>();
                scc.forEach(p -> names.add(p.substring(ROOT.length())));
                cycles.add(names);
            }
        }
        assertThat(cycles).as("package cycles of the production code (new ones fail; gone ones leave the list)")
                .containsExactlyInAnyOrderElementsOf(KNOWN);
    }

    /** Tarjan's algorithm, iterative over an explicit stack of (vertex, next-edge index). */
    static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new HashSet<>();
        List<Set<String>> out = new ArrayList<>();
        int[] counter = {0};
        for (String root : graph.keySet()) {
            if (index.containsKey(root)) {
                continue;
            }
            Deque<Object[]> work = new ArrayDeque<>();
            work.push(new Object[] {root, graph.get(root).iterator()});
            index.put(root, counter[0]);
            low.put(root, counter[0]++);
            stack.push(root);
            onStack.add(root);
            while (!work.isEmpty()) {
                Object[] frame = work.peek();
                String v = (String) frame[0];
                @SuppressWarnings("unchecked")
                Iterator<String> edges = (Iterator<String>) frame[1];
                if (edges.hasNext()) {
                    String w = edges.next();
                    if (!graph.containsKey(w)) {
                        continue;
                    }
                    if (!index.containsKey(w)) {
                        index.put(w, counter[0]);
                        low.put(w, counter[0]++);
                        stack.push(w);
                        onStack.add(w);
                        work.push(new Object[] {w, graph.get(w).iterator()});
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                } else {
                    work.pop();
                    if (!work.isEmpty()) {
                        String parent = (String) work.peek()[0];
                        low.put(parent, Math.min(low.get(parent), low.get(v)));
                    }
                    if (low.get(v).equals(index.get(v))) {
                        Set<String> scc = new TreeSet<>();
                        String w;
                        do {
                            w = stack.pop();
                            onStack.remove(w);
                            scc.add(w);
                        } while (!w.equals(v));
                        out.add(scc);
                    }
                }
            }
        }
        return out;
    }
}
