package dev.agentbus.eventbus.outgoing;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * The one rule for every URL the installation fetches for a user: their own model server, their own and their
 * workspace's MCP servers over HTTP, their notification webhook (and later git remotes and A2A agents). URLs the
 * operator configured (the team's model server, the team's MCP servers) are the operator's choice and are not checked.
 *
 * <ul>
 *   <li>Every address the host resolves to must be public ({@link InternalAddresses}: not loopback, link-local,
 *       private, carrier-grade NAT, unique local, unspecified, multicast or reserved), unless the operator's allow-list
 *       ({@link AllowList}, {@code agentbus.outgoing.allow}) opens it. Checked at the time of each request, after DNS
 *       resolution, so a name that later points inside is caught at its next request. The JDK keeps a resolved name
 *       for 30 s, so the connection that follows uses the addresses checked here.</li>
 *   <li>The gateway's own listeners ({@link OwnListeners}) are refused even where the allow-list opens their address:
 *       a user's model server that is the gateway itself made one message start hundreds of sessions.</li>
 *   <li>Every outgoing request carries {@link #HOP_HEADER}; the gateway refuses a request that carries it, so a
 *       request that comes back to it by any route (a proxy, a DNS name, another replica) ends there.</li>
 *   <li>Redirects are not followed (the JDK client's default, kept by every caller): a redirect is answered like
 *       any other non-2xx status, so it cannot lead past this check.</li>
 *   <li>A non-2xx answer is shown as its status and a fixed reason ({@link #statusReason}), never its body: an
 *       internal service's error text must not reach a session, a log the user sees, or an API answer.</li>
 * </ul>
 */
public final class OutgoingPolicy {
    /** The marker on every outgoing request; a request that carries it is refused by the gateway. */
    public static final String HOP_HEADER = "Agentbus-Hop";
    /** Its value: which kind of installation sent it (any value is refused). */
    public static final String HOP_VALUE = "agentbus";

    /** Nothing internal allowed: the default with no {@code agentbus.outgoing.allow}. */
    public static final OutgoingPolicy DEFAULT = new OutgoingPolicy(AllowList.NONE);

    private final AllowList allow;

    private OutgoingPolicy(AllowList allow) {
        this.allow = allow;
    }

    /** The policy with the allow-list {@code allowSetting} (comma-separated entries, see {@link AllowList}). */
    public static OutgoingPolicy allowing(String allowSetting) {
        return new OutgoingPolicy(AllowList.parse(allowSetting));
    }

    /**
     * Checks {@code url} (an absolute http(s) URL) right before a request to it.
     *
     * @return the URL, parsed
     * @throws OutgoingRefused with a reason the user can read, naming the host but never an address it resolved to
     */
    public URI check(String url) throws OutgoingRefused {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new OutgoingRefused("'" + url + "' is not a URL");
        }
        check(uri);
        return uri;
    }

    /** As {@link #check(String)}, for a parsed URI. */
    public void check(URI uri) throws OutgoingRefused {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new OutgoingRefused("only http and https URLs are fetched, not '" + uri + "'");
        }
        String host = uri.getHost();
        if (host == null || host.isBlank()) {
            throw new OutgoingRefused("'" + uri + "' names no host");
        }
        int port = uri.getPort() > 0 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw new OutgoingRefused("the host " + host + " could not be resolved", true);
        }
        for (InetAddress address : addresses) {
            if (OwnListeners.has(port) && onThisHost(address)) {
                throw new OutgoingRefused(host + ":" + port + " is this installation's own gateway; it cannot be "
                        + "used as a server of its own sessions");
            }
            Optional<String> internal = InternalAddresses.reason(address);
            if (internal.isPresent() && !allow.allows(host, port, address)) {
                throw new OutgoingRefused(host + " is an internal address (" + internal.get() + "), which "
                        + "this installation does not reach for its users; an operator can allow it with "
                        + "agentbus.outgoing.allow");
            }
        }
    }

    /**
     * The check when a user saves a URL for later: as {@link #check(String)}, but a host that does not resolve yet
     * passes (it is checked again before every request).
     */
    public void checkToSave(String url) throws OutgoingRefused {
        try {
            check(url);
        } catch (OutgoingRefused e) {
            if (!e.unresolved()) {
                throw e;
            }
        }
    }

    /** Whether {@code url} passes {@link #check(String)}. */
    public boolean allows(String url) {
        try {
            check(url);
            return true;
        } catch (OutgoingRefused e) {
            return false;
        }
    }

    /** How a non-2xx answer is shown: its status and a fixed reason, never a word of its body. */
    public static String statusReason(int status) {
        String reason = switch (status) {
            case 400 -> "bad request";
            case 401 -> "not authorised: check the API key or token";
            case 403 -> "forbidden";
            case 404 -> "not found: check the URL (and the model name)";
            case 405 -> "method not allowed: check the URL";
            case 408, 504 -> "timed out";
            case 409 -> "conflict";
            case 413 -> "request too large";
            case 422 -> "the request could not be processed";
            case 429 -> "too many requests";
            case 500 -> "internal server error";
            case 502 -> "bad gateway";
            case 503 -> "service unavailable";
            default -> status / 100 == 3 ? "a redirect, which is not followed"
                    : status / 100 == 4 ? "the request was refused" : "a server error";
        };
        return "HTTP " + status + " (" + reason + ")";
    }

    private static boolean onThisHost(InetAddress address) {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "OutgoingPolicy[allow=" + allow + "]";
    }
}
