package dev.agentbus.gateway.accounts.credentials;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a new password must be, after NIST SP 800-63B (5.1.1.2): long enough, not too long to hash, and not one an
 * attacker tries first. Refused: a blank or whitespace-only password; one that is the username, or the username with
 * only digits, symbols or a few characters around it (the username twice, {@code alice2024!}); one on the list of
 * common passwords shipped with the gateway ({@code common-passwords.txt}, compared ignoring case). Nothing else:
 * NIST advises against composition rules (a digit, a capital), which make passwords harder to remember and no
 * harder to guess. Whether a new password equals the current one is for the caller, who holds the hash.
 *
 * <p>Pure: {@link #check} answers the broken rule, in words for a 400.
 */
public final class PasswordPolicy {
    public static final int MAX_LENGTH = 1024;
    private static final Pattern NO_LETTERS = Pattern.compile("[^\\p{L}]*");
    private static final Set<String> COMMON = load();

    private final int minLength;

    public PasswordPolicy(int minLength) {
        this.minLength = minLength;
    }

    /** @return the rule the password breaks, or empty when it may be used */
    public Optional<String> check(String password, String username) {
        if (password == null || password.isBlank()) {
            return Optional.of("the password must not be blank or only spaces");
        }
        if (password.length() < minLength) {
            return Optional.of("the password must have at least " + minLength + " characters");
        }
        if (password.length() > MAX_LENGTH) {
            return Optional.of("the password must have at most " + MAX_LENGTH + " characters");
        }
        String lower = password.toLowerCase(Locale.ROOT);
        if (username != null && !username.isBlank()) {
            String name = username.strip().toLowerCase(Locale.ROOT);
            String rest = lower.replace(name, "");
            if (rest.length() != lower.length()
                    && (rest.strip().length() < Math.max(4, minLength / 2) || NO_LETTERS.matcher(rest).matches())) {
                return Optional.of("the password must not be your username, or your username with a few "
                        + "characters added");
            }
        }
        if (COMMON.contains(lower) || COMMON.contains(lower.strip())) {
            return Optional.of("this password is on the list of common passwords attackers try first; "
                    + "choose another (a few unrelated words make a good one)");
        }
        return Optional.empty();
    }

    /** How many common passwords are refused (for tests). */
    static int commonCount() {
        return COMMON.size();
    }

    private static Set<String> load() {
        Set<String> words = new HashSet<>();
        try (InputStream in = PasswordPolicy.class.getResourceAsStream("common-passwords.txt")) {
            if (in == null) {
                throw new IllegalStateException("common-passwords.txt is missing from the gateway's resources");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = reader.readLine()) != null; ) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    words.add(line.strip().toLowerCase(Locale.ROOT));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Set.copyOf(words);
    }
}
