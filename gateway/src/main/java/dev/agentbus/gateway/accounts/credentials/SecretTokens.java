package dev.agentbus.gateway.accounts.credentials;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Opaque bearer secrets: API keys ({@code ab_} prefix) and login cookies ({@code ls_} prefix).
 *
 * <p>A token is a prefix plus 256 random bits in base64url without padding (43 characters), so it is safe in a
 * header, a cookie or a URL without escaping. The prefix is not secret: it tells a person (or a secret scanner
 * searching logs and repositories) what kind of credential a stray string is, and lets the gateway tell the kinds
 * apart without a lookup. Only {@link #sha256Hex} of a token is stored; the token itself is shown once (API keys) or lives only in
 * the browser (cookies), so a leaked database holds nothing that authenticates.
 */
public final class SecretTokens {
    /** Prefix for API keys. */
    public static final String API_KEY_PREFIX = "ab_";
    /** Prefix for login session cookies. */
    public static final String LOGIN_PREFIX = "ls_";
    /** 256 bits: far beyond guessing, online or offline, for as long as any token lives. */
    private static final int RANDOM_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private SecretTokens() {
    }

    /** {@code prefix} followed by 32 random bytes in base64url without padding. */
    public static String newToken(String prefix) {
        if (prefix == null) {
            throw new IllegalArgumentException("prefix is required (it may be empty)");
        }
        byte[] bytes = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return prefix + BASE64URL.encodeToString(bytes);
    }

    /**
     * What to store for a token, and what to look a presented token up by: the lower-case hex SHA-256 of its UTF-8
     * bytes, prefix included.
     *
     * <p>An unsalted fast hash is the standard choice for random tokens, unlike for passwords: with 256 random bits
     * there is nothing to guess, so salt and a slow hash would add no protection, only cost on every request. Being
     * deterministic, the hash can be an indexed column looked up directly; and since nobody can choose a token that
     * hashes to a given value, the lookup's timing reveals nothing useful.
     */
    public static String sha256Hex(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
