package dev.agentbus.gateway.auth;

/** What an account may do: {@code admin} also manages users, invites, groups and runs {@code /api/v1/admin/*}. */
public enum Role {
    ADMIN, USER;

    public String wireName() {
        return name().toLowerCase();
    }

    /** @throws IllegalArgumentException for anything but {@code admin} or {@code user} */
    public static Role parse(String text) {
        if (text != null) {
            for (Role r : values()) {
                if (r.wireName().equals(text.trim().toLowerCase())) {
                    return r;
                }
            }
        }
        throw new IllegalArgumentException("role must be 'admin' or 'user', not '" + text + "'");
    }
}
