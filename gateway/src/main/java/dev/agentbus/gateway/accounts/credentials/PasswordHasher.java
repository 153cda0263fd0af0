package dev.agentbus.gateway.accounts.credentials;

import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Password hashing with Argon2id, stored in the PHC string format that the reference {@code argon2} CLI,
 * libsodium, argon2-cffi and most other libraries read and write:
 * {@code $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>}, with standard base64 without padding.
 *
 * <p>Why Argon2id: it is memory-hard (so GPUs and ASICs gain little over a server CPU) and it is the variant RFC 9106
 * and OWASP recommend, resisting both side-channel and time-memory trade-off attacks. Why the PHC format: the
 * parameters and salt travel with the hash, so {@link #verify} keeps working for old hashes after the cost is
 * raised, {@link #needsRehash} can tell which ones to upgrade at the next login, and the stored value stays
 * portable to any other Argon2 implementation.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class PasswordHasher {
    /** 128 bits: RFC 9106's recommended salt length, enough that salts never repeat across all users. */
    private static final int SALT_BYTES = 16;
    /** 256 bits: RFC 9106's recommended tag length; longer output adds nothing against guessing. */
    private static final int HASH_BYTES = 32;
    /** Argon2 version 1.3 (0x13 = 19), the current one; 1.0 had a weakness fixed by 1.3. */
    private static final int VERSION = Argon2Parameters.ARGON2_VERSION_13;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
    private static final Base64.Decoder B64_DECODE = Base64.getDecoder();
    /**
     * The PHC string as the reference implementation writes Argon2id: fixed parameter order, decimal numbers, base64
     * without padding. Being exact here (rather than accepting every PHC variant) keeps the parser small and every
     * oddity a plain "no".
     */
    private static final Pattern PHC = Pattern.compile(
            "\\$argon2id\\$v=19\\$m=(\\d{1,10}),t=(\\d{1,10}),p=(\\d{1,10})\\$([A-Za-z0-9+/]+)\\$([A-Za-z0-9+/]+)");

    /**
     * Argon2 cost parameters.
     *
     * <p>The upper bounds are not Argon2's (which are far larger) but a guard: without them, a corrupted or tampered
     * stored hash could make {@link PasswordHasher#verify} try to allocate up to Bouncy Castle's own 16 GiB limit or
     * run for hours. They are still far above any cost a login endpoint can afford, so no real hash is refused.
     *
     * @param memoryKiB   memory in KiB (Argon2's {@code m}); at least 8 per lane, at most 1 GiB
     * @param iterations  passes over the memory (Argon2's {@code t}); 1 to 64
     * @param parallelism lanes (Argon2's {@code p}); 1 to 64
     */
    public record Cost(int memoryKiB, int iterations, int parallelism) {
        /**
         * OWASP's Password Storage Cheat Sheet minimum for Argon2id: m=19 MiB, t=2, p=1. OWASP lists it among
         * settings of equal strength that trade memory for passes; this one keeps memory per login modest (19 MiB,
         * so a burst of logins cannot exhaust a small self-hosted server) at under a tenth of a second of CPU with
         * Bouncy Castle (about 85 ms on one x86 core when this was written). One lane, because the gateway serves
         * many requests at once and Bouncy Castle computes lanes one after another anyway, so more lanes would only
         * cost time.
         */
        public static final Cost OWASP = new Cost(19456, 2, 1);

        public Cost {
            if (parallelism < 1 || parallelism > 64) {
                throw new IllegalArgumentException("parallelism must be 1 to 64, not " + parallelism);
            }
            if (iterations < 1 || iterations > 64) {
                throw new IllegalArgumentException("iterations must be 1 to 64, not " + iterations);
            }
            if (memoryKiB < 8 * parallelism || memoryKiB > 1024 * 1024) {
                throw new IllegalArgumentException("memoryKiB must be 8 × parallelism to 1 GiB, not " + memoryKiB);
            }
        }
    }

    private final Cost cost;

    public PasswordHasher(Cost cost) {
        if (cost == null) {
            throw new IllegalArgumentException("cost is required");
        }
        this.cost = cost;
    }

    /** A hasher with {@link Cost#OWASP}. */
    public static PasswordHasher owasp() {
        return new PasswordHasher(Cost.OWASP);
    }

    /** The cost new hashes are made with. */
    public Cost cost() {
        return cost;
    }

    /** A fresh PHC string for {@code password}, with a new random salt: hashing the same password twice differs. */
    public String hash(String password) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        byte[] hash = argon2id(password, salt, cost, HASH_BYTES);
        return "$argon2id$v=19$m=" + cost.memoryKiB() + ",t=" + cost.iterations() + ",p=" + cost.parallelism()
                + "$" + B64.encodeToString(salt) + "$" + B64.encodeToString(hash);
    }

    /**
     * Whether {@code password} is the one {@code encoded} was made from. The cost, salt and output length come from
     * {@code encoded}, not from this hasher, so hashes made with an older cost still verify. The comparison takes the
     * same time wherever the first differing byte is.
     *
     * @return false also for a null or malformed {@code encoded}; never throws for bad input
     */
    public boolean verify(String password, String encoded) {
        if (password == null) {
            return false;
        }
        Parsed parsed = parse(encoded);
        if (parsed == null) {
            return false;
        }
        byte[] actual = argon2id(password, parsed.salt(), parsed.cost(), parsed.hash().length);
        return MessageDigest.isEqual(actual, parsed.hash());
    }

    /**
     * Whether {@code encoded} was made with a cost other than this hasher's, so the caller should replace it with
     * {@link #hash} of the password it just verified (the only moment the plain password is at hand). Also true for a
     * string that is not a hash this class can read.
     */
    public boolean needsRehash(String encoded) {
        Parsed parsed = parse(encoded);
        return parsed == null || !parsed.cost().equals(cost);
    }

    private record Parsed(Cost cost, byte[] salt, byte[] hash) {
    }

    /** The parts of a PHC string, or null if it is not one this class produces or can safely verify. */
    private static Parsed parse(String encoded) {
        if (encoded == null) {
            return null;
        }
        Matcher m = PHC.matcher(encoded);
        if (!m.matches()) {
            return null;
        }
        try {
            Cost cost = new Cost(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)));
            byte[] salt = B64_DECODE.decode(m.group(4));
            byte[] hash = B64_DECODE.decode(m.group(5));
            // Argon2's own minimums (RFC 9106 section 3.1): an 8-byte salt and a 4-byte tag. The tag's upper bound
            // only stops a corrupted value from asking for a huge output.
            if (salt.length < 8 || hash.length < 4 || hash.length > 1024) {
                return null;
            }
            return new Parsed(cost, salt, hash);
        } catch (IllegalArgumentException e) {
            // NumberFormatException (a number beyond int) is one of these, as are the Cost bounds and bad base64.
            return null;
        }
    }

    private static byte[] argon2id(String password, byte[] salt, Cost cost, int length) {
        Argon2Parameters parameters = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(VERSION)
                .withSalt(salt)
                .withMemoryAsKB(cost.memoryKiB())
                .withIterations(cost.iterations())
                .withParallelism(cost.parallelism())
                .build();
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(parameters);
        // UTF-8, like every other Argon2 tool, so a hash moved to or from another implementation still verifies.
        // (Unicode normalisation is the caller's choice: this hashes exactly the code points it is given.)
        byte[] passwordBytes = password.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[length];
        try {
            generator.generateBytes(passwordBytes, out);
        } finally {
            Arrays.fill(passwordBytes, (byte) 0);
        }
        return out;
    }
}
