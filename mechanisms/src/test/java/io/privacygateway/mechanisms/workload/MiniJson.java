package io.privacygateway.mechanisms.workload;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A tiny JSON reader for tests of the canonical form (objects, arrays, strings, numbers). */
final class MiniJson {
    private final String s;
    private int i;

    private MiniJson(String s) {
        this.s = s;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> parse(String text) {
        return (Map<String, Object>) new MiniJson(text).value();
    }

    private Object value() {
        char c = s.charAt(i);
        if (c == '{') {
            i++;
            Map<String, Object> m = new LinkedHashMap<>();
            if (s.charAt(i) == '}') {
                i++;
                return m;
            }
            while (true) {
                String k = string();
                i++; // ':'
                m.put(k, value());
                if (s.charAt(i++) == '}') {
                    return m;
                }
            }
        }
        if (c == '[') {
            i++;
            List<Object> l = new ArrayList<>();
            if (s.charAt(i) == ']') {
                i++;
                return l;
            }
            while (true) {
                l.add(value());
                if (s.charAt(i++) == ']') {
                    return l;
                }
            }
        }
        if (c == '"') {
            return string();
        }
        int start = i;
        while (i < s.length() && "-+.0123456789eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        BigDecimal b = new BigDecimal(s.substring(start, i));
        return b.scale() <= 0 ? (Object) b.longValueExact() : (Object) b.doubleValue();
    }

    private String string() {
        StringBuilder sb = new StringBuilder();
        i++; // opening quote
        while (s.charAt(i) != '"') {
            char c = s.charAt(i++);
            if (c == '\\') {
                char e = s.charAt(i++);
                sb.append(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e);
            } else {
                sb.append(c);
            }
        }
        i++;
        return sb.toString();
    }
}
