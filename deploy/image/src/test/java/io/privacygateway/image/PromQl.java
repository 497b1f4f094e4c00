package io.privacygateway.image;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads: identifiers that are not functions, keywords, label
 * names or parts of label matchers, ranges, numbers or Grafana variables. Enough for the project's
 * own expressions (promtool checks their syntax separately); not a PromQL parser.
 */
final class PromQl {
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without",
            "on", "ignoring", "group_left", "group_right", "inf", "nan", "atan2");
    private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGES = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern GRAFANA_VARIABLES = Pattern.compile("\\$\\{?\\w+}?");
    private static final Pattern NUMBERS = Pattern.compile("(?<![A-Za-z0-9_:.])\\d+(\\.\\d+)?([eE][+-]?\\d+)?");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");

    private PromQl() {}

    static Set<String> metricNames(String expr) {
        String s = STRINGS.matcher(expr).replaceAll(" ");
        s = MATCHERS.matcher(s).replaceAll(" ");
        s = RANGES.matcher(s).replaceAll(" ");
        s = GROUPING.matcher(s).replaceAll(" ");
        s = GRAFANA_VARIABLES.matcher(s).replaceAll(" ");
        s = NUMBERS.matcher(s).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String id = m.group();
            int after = m.end();
            while (after < s.length() && Character.isWhitespace(s.charAt(after))) {
                after++;
            }
            boolean function = after < s.length() && s.charAt(after) == '(';
            if (!function && !KEYWORDS.contains(id)) {
                names.add(id);
            }
        }
        return names;
    }

    /** The expression with Grafana's variables replaced by values promtool accepts. */
    static String withoutGrafanaVariables(String expr) {
        return expr.replace("$__rate_interval", "5m").replace("$__range", "1h").replace("$__interval", "1m")
                .replace("${workload}", ".*").replace("$workload", ".*");
    }
}
