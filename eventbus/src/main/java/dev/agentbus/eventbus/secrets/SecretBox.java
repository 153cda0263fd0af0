package dev.agentbus.eventbus.secrets;

import dev.agentbus.eventbus.DataDir;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Seals small secrets (a user's model-server key) so they can travel on Kafka and rest on disk without being
 * readable: AES-256-GCM with a random 96-bit nonce, and the owner's id as associated data, so a sealed value copied
 * to another user's record does not open. The key is the installation's ({@link SecretSettings}); whoever has it
 * (every service, an admin with the data directory) can open the values, whoever has only the topics or a backup
 * cannot.
 */
public final class SecretBox {
    static final String PREFIX = "v1:";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    SecretBox(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("the secret key must be 32 bytes (base64 of 32 random bytes), was "
                    + key.length);
        }
        this.key = new SecretKeySpec(key, "AES");
    }

    /** The box with the configured key, or the key file of the data directory (made on first use, owner only). */
    public static SecretBox load(SecretSettings settings) {
        if (!settings.secretKey().isBlank()) {
            try {
                return new SecretBox(Base64.getDecoder().decode(settings.secretKey()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("agentbus.secret-key (AGENTBUS_SECRET_KEY) must be 32 bytes as "
                        + "base64, e.g. the output of: head -c 32 /dev/urandom | base64");
            }
        }
        return new SecretBox(keyFile(DataDir.of(settings.dataDir()).resolve("secret-key")));
    }

    /** @param owner whom the secret belongs to; the same owner must be given to {@link #open} */
    public String seal(String secret, String owner) {
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            RANDOM.nextBytes(nonce);
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(owner.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = c.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return PREFIX + Base64.getEncoder().encodeToString(ByteBuffer.allocate(nonce.length + sealed.length)
                    .put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available: " + e.getMessage(), e);
        }
    }

    /**
     * @throws IllegalArgumentException when the value was not sealed with this key for this owner, or was changed
     *                                  (the message says which, never the secret)
     */
    public String open(String sealed, String owner) {
        if (sealed == null || !sealed.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a sealed value");
        }
        try {
            byte[] all = Base64.getDecoder().decode(sealed.substring(PREFIX.length()));
            if (all.length < NONCE_BYTES + TAG_BITS / 8) {
                throw new IllegalArgumentException("a sealed value that is too short");
            }
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, NONCE_BYTES));
            c.updateAAD(owner.getBytes(StandardCharsets.UTF_8));
            return new String(c.doFinal(all, NONCE_BYTES, all.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new IllegalArgumentException("a sealed value that does not open with this installation's key for "
                    + "this user (another key, another user, or changed)");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available: " + e.getMessage(), e);
        }
    }

    /**
     * Reads the key file, or makes it: created exclusively, so two services starting at once on one data directory
     * end up with the same key (the loser of the race reads the winner's).
     */
    static byte[] keyFile(Path file) {
        try {
            Files.createDirectories(file.getParent());
            byte[] key = new byte[32];
            RANDOM.nextBytes(key);
            Path tmp = Files.createTempFile(file.getParent(), "secret-key", ".tmp");
            try {
                try {
                    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
                } catch (UnsupportedOperationException notPosix) {
                    // best effort on non-POSIX file systems
                }
                Files.writeString(tmp, Base64.getEncoder().encodeToString(key) + "\n");
                try {
                    // A hard link is atomic and fails if the name exists: exactly one writer wins.
                    Files.createLink(file, tmp);
                } catch (FileAlreadyExistsException taken) {
                    // another service made it first
                } catch (UnsupportedOperationException noLinks) {
                    if (!Files.exists(file)) {
                        Files.move(tmp, file);
                    }
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
            return Base64.getDecoder().decode(Files.readString(file).strip());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or make the secret key file " + file + ": "
                    + e.getMessage(), e);
        }
    }

    /** One box per application context, for the services that seal or open secrets. */
    @Factory
    static class Beans {
        @Singleton
        SecretBox secretBox(SecretSettings settings) {
            return load(settings);
        }
    }
}
