package dev.agentbus.gateway.accounts.credentials;

import java.io.ByteArrayOutputStream;

/**
 * RFC 4648 base32 (alphabet {@code A-Z2-7}), the encoding authenticator apps expect for TOTP secrets.
 *
 * <p>Encoding writes no {@code =} padding because the otpauth key URI format and the apps that read it expect the
 * secret without it. Decoding is lenient in the ways people (and other encoders) differ: case, spaces (apps and
 * password managers show secrets in groups of four) and padding are ignored. Anything else that is not in the
 * alphabet is an error rather than something to skip, because silently dropping a mistyped character would yield a
 * different key and codes that never match.
 */
final class Base32 {
    private static final char[] ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".toCharArray();

    private Base32() {
    }

    /** The base32 text of {@code data}, upper case, without padding. */
    public static String encode(byte[] data) {
        StringBuilder out = new StringBuilder((data.length * 8 + 4) / 5);
        int buffer = 0;
        int bits = 0;
        for (byte b : data) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                out.append(ALPHABET[(buffer >>> (bits - 5)) & 0x1f]);
                bits -= 5;
            }
        }
        if (bits > 0) {
            // The last group is padded with zero bits on the right, as RFC 4648 section 6 says.
            out.append(ALPHABET[(buffer << (5 - bits)) & 0x1f]);
        }
        return out.toString();
    }

    /**
     * The bytes {@code text} encodes, ignoring case, whitespace and {@code =} padding.
     *
     * @throws IllegalArgumentException for a character outside the alphabet, or a length no encoder produces
     */
    public static byte[] decode(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() * 5 / 8);
        int buffer = 0;
        int bits = 0;
        int symbols = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '=' || Character.isWhitespace(c)) {
                continue;
            }
            buffer = (buffer << 5) | value(c);
            bits += 5;
            symbols++;
            if (bits >= 8) {
                out.write((buffer >>> (bits - 8)) & 0xff);
                bits -= 8;
            }
        }
        // A final group of 1, 3 or 6 symbols holds fewer than 8 bits beyond whole bytes that no byte count produces:
        // the text was truncated or mistyped, so say so instead of guessing.
        int rest = symbols % 8;
        if (rest == 1 || rest == 3 || rest == 6) {
            throw new IllegalArgumentException("not base32: " + symbols + " symbols is not a possible length");
        }
        return out.toByteArray();
    }

    private static int value(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a';
        }
        if (c >= '2' && c <= '7') {
            return c - '2' + 26;
        }
        throw new IllegalArgumentException("not base32: unexpected character '" + c + "'");
    }
}
