package dev.agentbus.gateway.accounts.credentials;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * Time-based one-time passwords (RFC 6238) as authenticator apps compute them: HMAC-SHA1, 30-second steps, six
 * digits. Those are the defaults of the otpauth key URI format, and the only settings every app supports (several
 * silently ignore {@code algorithm}, {@code digits} and {@code period}), so they are what {@link #matchingStep} and
 * {@link #otpauthUri} use. SHA-1 is not a weakness here: HMAC-SHA1 does not depend on SHA-1's collision resistance.
 * {@link #code} takes the algorithm and length as arguments so the RFC's test vectors can be checked.
 */
public final class Totp {
    /** RFC 6238's default time step, and what every authenticator app uses. */
    public static final int PERIOD_SECONDS = 30;
    /** The code length apps show by default. */
    public static final int DIGITS = 6;
    /** The MAC the otpauth format implies when it names none. */
    public static final String ALGORITHM = "HmacSHA1";
    /**
     * 160 bits, the output size of SHA-1: RFC 4226 section 4 requires at least 128 bits and recommends 160. Longer
     * keys would be hashed down by HMAC anyway.
     */
    private static final int SECRET_BYTES = 20;
    private static final int[] POWERS_OF_TEN = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000,
            100_000_000, 1_000_000_000};
    private static final SecureRandom RANDOM = new SecureRandom();

    private Totp() {
    }

    /** A new random shared secret, in base32 as the otpauth URI and manual entry in apps expect it (32 characters). */
    public static String newSecret() {
        byte[] key = new byte[SECRET_BYTES];
        RANDOM.nextBytes(key);
        return Base32.encode(key);
    }

    /**
     * The code for one time step: HMAC over the step as an 8-byte big-endian counter, then RFC 4226's dynamic
     * truncation to 31 bits, reduced to {@code digits} decimal digits and zero-padded. (This is HOTP with the step as
     * counter, so it also computes RFC 4226 HOTP codes.)
     *
     * @param key           the shared secret's bytes
     * @param step          the time step ({@link #step}), or HOTP's counter
     * @param digits        6 to 9: RFC 4226 requires at least 6, and the 31 truncated bits hold just over 9 digits
     * @param hmacAlgorithm a JCA MAC name: {@code HmacSHA1}, {@code HmacSHA256} or {@code HmacSHA512}
     * @throws IllegalArgumentException for an empty key, an unknown algorithm or an unsupported length
     */
    public static String code(byte[] key, long step, int digits, String hmacAlgorithm) {
        if (digits < 6 || digits > 9) {
            throw new IllegalArgumentException("digits must be 6 to 9, not " + digits);
        }
        byte[] hash;
        try {
            Mac mac = Mac.getInstance(hmacAlgorithm);
            mac.init(new SecretKeySpec(key, hmacAlgorithm));
            hash = mac.doFinal(ByteBuffer.allocate(Long.BYTES).putLong(step).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot compute " + hmacAlgorithm + ": " + e.getMessage(), e);
        }
        // Dynamic truncation (RFC 4226 section 5.3): the low 4 bits of the last byte pick where to read 4 bytes, and
        // the top bit is dropped so the value is the same whether a platform reads it signed or unsigned.
        int offset = hash[hash.length - 1] & 0x0f;
        int binary = ((hash[offset] & 0x7f) << 24)
                | ((hash[offset + 1] & 0xff) << 16)
                | ((hash[offset + 2] & 0xff) << 8)
                | (hash[offset + 3] & 0xff);
        String code = Integer.toString(binary % POWERS_OF_TEN[digits]);
        return "0".repeat(digits - code.length()) + code;
    }

    /** The RFC 6238 time step {@code t} falls in: whole 30-second periods since the Unix epoch. */
    public static long step(Instant t) {
        return Math.floorDiv(t.getEpochSecond(), PERIOD_SECONDS);
    }

    /**
     * The time step whose code {@code code} is, among the step {@code now} falls in and the one before and after it.
     * The two neighbours allow for a phone clock up to about 30 seconds off and for a code typed just as it changed
     * (RFC 6238 section 5.2 recommends at most one step of delay). Wider windows would only give guessing more
     * chances: each accepted step adds one in a million.
     *
     * <p><b>Replay protection is the caller's job</b>: a code stays valid for up to 90 seconds here, so someone who
     * sees it (over a shoulder, through a phishing proxy) could use it again. Store the returned step with the
     * account and refuse any code whose step is less than or equal to the last one used, as RFC 6238 section 5.2
     * requires; update the stored step atomically (compare-and-set) so two concurrent logins cannot both use it.
     * Rate-limiting failed attempts is the caller's job too.
     *
     * <p>All three candidates are computed and compared in constant time whatever matches, so response times say
     * nothing about the code.
     *
     * @param base32Secret the shared secret as {@link #newSecret} made it
     * @param code         what the user typed: exactly six ASCII digits (strip spaces before calling)
     * @return the matching step, or empty if none matches, the code is not six digits, or the secret is not base32
     */
    public static OptionalLong matchingStep(String base32Secret, String code, Instant now) {
        if (code == null || !isSixDigits(code) || base32Secret == null) {
            return OptionalLong.empty();
        }
        byte[] key;
        try {
            key = Base32.decode(base32Secret);
        } catch (IllegalArgumentException e) {
            return OptionalLong.empty();
        }
        if (key.length == 0) {
            return OptionalLong.empty();
        }
        byte[] typed = code.getBytes(StandardCharsets.US_ASCII);
        long current = step(now);
        long matched = Long.MIN_VALUE;
        // No early exit, so the work done does not depend on which step matched. Going from the latest to the
        // earliest, the earliest match wins: if two steps ever gave the same code (a one-in-a-million chance), the
        // later step stays usable for the next login.
        for (long candidate = current + 1; candidate >= current - 1; candidate--) {
            byte[] expected = code(key, candidate, DIGITS, ALGORITHM).getBytes(StandardCharsets.US_ASCII);
            if (MessageDigest.isEqual(expected, typed)) {
                matched = candidate;
            }
        }
        return matched == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(matched);
    }

    /**
     * The {@code otpauth://} key URI that authenticator apps scan from a QR code (see {@link QrCodes}), in the format
     * Google Authenticator defined and the others follow. The issuer appears both as the label prefix (for old apps)
     * and as the {@code issuer} parameter (which newer apps prefer); parameters are spelled out even where they are
     * the defaults, so no app has to guess.
     *
     * <p>Every part is percent-encoded as UTF-8, with spaces as {@code %20}: the URI format calls for
     * RFC 3986 encoding, and some apps show a {@code +} literally. An issuer containing a colon would confuse the
     * label, so it is encoded ({@code %3A}) like any other reserved character.
     *
     * @param issuer       who the account is with, e.g. {@code Agentbus} (shown in the app)
     * @param account      which account, e.g. the username or email address
     * @param base32Secret the shared secret; spaces, padding and lower case are normalised away
     * @throws IllegalArgumentException if the secret is not base32
     */
    public static String otpauthUri(String issuer, String account, String base32Secret) {
        String secret = Base32.encode(Base32.decode(base32Secret));
        String encodedIssuer = encode(issuer);
        return "otpauth://totp/" + encodedIssuer + ":" + encode(account)
                + "?secret=" + secret
                + "&issuer=" + encodedIssuer
                + "&algorithm=SHA1&digits=" + DIGITS + "&period=" + PERIOD_SECONDS;
    }

    private static boolean isSixDigits(String code) {
        if (code.length() != DIGITS) {
            return false;
        }
        for (int i = 0; i < code.length(); i++) {
            // ASCII only: Character.isDigit would also accept, say, Arabic-Indic digits.
            char c = code.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static String encode(String s) {
        // URLEncoder does form encoding (space as '+'); turning '+' into %20 is safe because a literal '+' has
        // already become %2B.
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
