package dev.agentbus.gateway.accounts.credentials;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Single-use backup codes, for signing in when the authenticator app is lost: shown once at enrolment, stored only
 * as {@link #hash}es, and each struck off (deleted or marked used) by the caller when it is used.
 *
 * <p>Codes look like {@code k7fq-2xmp}: eight characters from a 31-character alphabet, about 40 bits each. The
 * alphabet leaves out {@code 0 o 1 l i} because people copy these codes by hand, from paper, in whatever font they
 * were printed in; lower case because it is quicker to type on a phone, and {@link #normalize} accepts upper case
 * anyway. The dash only helps reading; it, spaces and case do not count.
 */
public final class BackupCodes {
    /** a-z without i, l, o, and 2-9: 23 letters + 8 digits. */
    private static final String ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
    private static final int LENGTH = 8;
    private static final SecureRandom RANDOM = new SecureRandom();

    private BackupCodes() {
    }

    /**
     * {@code count} new codes, all different (a repeat within a batch would be one code fewer than the user was
     * promised), formatted {@code xxxx-xxxx}.
     */
    public static List<String> generate(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, not " + count);
        }
        Set<String> codes = new LinkedHashSet<>();
        while (codes.size() < count) {
            StringBuilder code = new StringBuilder(LENGTH + 1);
            for (int i = 0; i < LENGTH; i++) {
                if (i == LENGTH / 2) {
                    code.append('-');
                }
                // nextInt(bound) draws without modulo bias, so every character is equally likely.
                code.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
            }
            codes.add(code.toString());
        }
        return List.copyOf(codes);
    }

    /**
     * A typed code in the form codes are hashed in: lower case, without whitespace or dashes (including the en and
     * em dashes phone keyboards substitute), so {@code "K7FQ 2XMP"} and {@code "k7fq-2xmp"} are the same code.
     */
    public static String normalize(String typed) {
        // isSpaceChar as well as isWhitespace: the latter leaves out no-break spaces, which copying from a page adds.
        StringBuilder out = new StringBuilder(typed.length());
        typed.codePoints()
                .filter(c -> !Character.isWhitespace(c) && !Character.isSpaceChar(c)
                        && Character.getType(c) != Character.DASH_PUNCTUATION)
                .forEach(out::appendCodePoint);
        return out.toString().toLowerCase(Locale.ROOT);
    }

    /**
     * What to store for a code, and what to look a typed code up by: the lower-case hex SHA-256 of its
     * {@linkplain #normalize normal form}.
     *
     * <p>A fast, unsalted hash is enough here, unlike for passwords: backup codes are random rather than chosen by
     * people, so there is no dictionary to try and no reuse across sites to exploit; online guessing is stopped by
     * rate limits and by each code working once. Someone holding a copy of the database could brute-force the
     * 40 bits offline, but a backup code only stands in for the second factor: they would still need the account's
     * password, which is protected by Argon2id. Being deterministic, the hash can be looked up directly.
     */
    public static String hash(String code) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(normalize(code).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
