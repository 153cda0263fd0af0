package dev.agentbus.cli.gateway;

/**
 * The gateway's HTTP API (/api/v1) as the CLI uses it, one area client per part of the API: to find where
 * {@code agentbus X} calls the gateway, follow {@code cli.gateway().<area>()} to the area's class. Every answer is
 * read into its record of the api module (the contract the gateway writes), and every failure leaves as a
 * {@link GatewayException} worded for a person ({@link GatewayHttp}). Uses the JDK's HttpClient on purpose: the CLI
 * jar should stay small and start fast, and HTTP/1.1 plus a streamed body is all SSE needs.
 */
public final class GatewayClient {
    private final GatewayHttp http;
    private final SessionsApi sessions;
    private final TurnsApi turns;
    private final FilesApi files;
    private final TransferApi transfer;
    private final InboxApi inbox;
    private final MemoryApi memory;
    private final NotificationsApi notifications;
    private final SearchApi search;
    private final AdminApi admin;
    private final EventsApi events;

    public GatewayClient(String baseUrl, String token) {
        this.http = new GatewayHttp(baseUrl, token);
        this.sessions = new SessionsApi(http);
        this.turns = new TurnsApi(http);
        this.files = new FilesApi(http);
        this.transfer = new TransferApi(http);
        this.inbox = new InboxApi(http);
        this.memory = new MemoryApi(http);
        this.notifications = new NotificationsApi(http);
        this.search = new SearchApi(http);
        this.admin = new AdminApi(http);
        this.events = new EventsApi(http);
    }

    public String baseUrl() {
        return http.baseUrl();
    }

    /** Create, list, show, rename, delete sessions; their log and planning views. */
    public SessionsApi sessions() {
        return sessions;
    }

    /** Messages, cancel, whisper, approvals, plan decisions, permission mode, compact. */
    public TurnsApi turns() {
        return turns;
    }

    /** Writing files into a session's workspace (image attachments). */
    public FilesApi files() {
        return files;
    }

    /** Export, import, fork, rewind. */
    public TransferApi transfer() {
        return transfer;
    }

    /** Tasks queued to start later ({@code agentbus submit}, {@code agentbus inbox}). */
    public InboxApi inbox() {
        return inbox;
    }

    /** The caller's memory document. */
    public MemoryApi memory() {
        return memory;
    }

    /** The caller's notifications. */
    public NotificationsApi notifications() {
        return notifications;
    }

    /** Message search and the model list. */
    public SearchApi search() {
        return search;
    }

    /** Operator routes: rebuilding projections and insights. */
    public AdminApi admin() {
        return admin;
    }

    /** The live event stream, for {@link SessionStream}. */
    EventsApi events() {
        return events;
    }
}
