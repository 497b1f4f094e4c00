package io.privacygateway.mechanisms.codec;

/**
 * Lower-case hexadecimal text of bytes and back, as {@code java.util.HexFormat.of()} does (which Android lacks
 * below API 34): two digits per byte, most significant nibble first.
 */
public final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {}

    /** The lower-case hex text of {@code bytes}. */
    public static String format(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >>> 4) & 0xF];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xF];
        }
        return new String(out);
    }

    /**
     * The bytes of hex text (digits {@code 0-9}, {@code a-f}, {@code A-F}).
     *
     * @throws IllegalArgumentException if the length is odd or a character is not a hex digit
     */
    public static byte[] parse(CharSequence hex) {
        if (hex.length() % 2 != 0) {
            throw new IllegalArgumentException("hex text must have an even length, got " + hex.length());
        }
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) ((digit(hex.charAt(2 * i)) << 4) | digit(hex.charAt(2 * i + 1)));
        }
        return out;
    }

    private static int digit(char c) {
        int d = Character.digit(c, 16);
        if (d < 0 || c > 'f') {
            throw new IllegalArgumentException("not a hex digit: U+" + Integer.toHexString(c));
        }
        return d;
    }
}
