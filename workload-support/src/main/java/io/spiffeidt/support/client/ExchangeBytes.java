package io.spiffeidt.support.client;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.impl.io.HttpRequestExecutor;
import org.apache.hc.core5.http.io.HttpClientConnection;
import org.apache.hc.core5.http.io.HttpResponseInformationCallback;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * The bytes one {@link DownstreamClient} exchange moved on its connection (docs/operations.md "Bytes
 * on the wire"), counted by the connection itself: HttpCore's connection metrics count every byte
 * its session buffers write to and read from the socket, so the difference around one exchange is
 * the request as sent (request line, headers, body) and the answer as read (status line, headers,
 * body, chunk framing), inside TLS. Counts are per connection and cumulative; the answer's count is
 * taken when its body ends or is closed, before the connection goes back to the pool, so a pooled
 * connection's next exchange is never mixed in.
 *
 * <p>Bound to the calling thread for one exchange ({@link #begin}), which the classic client runs on
 * that thread; {@link #executor()} is the request executor of every client {@link
 * DownstreamClients} builds. Thread safety: one instance per exchange; the executor is thread safe.
 */
final class ExchangeBytes {

    private static final ThreadLocal<ExchangeBytes> CURRENT = new ThreadLocal<>();

    private static final HttpRequestExecutor EXECUTOR = new CountingExecutor();

    private EndpointDetails connection;
    private long sentBefore;
    private long receivedBefore;
    private long sent = -1;
    private long received = -1;

    private ExchangeBytes() {}

    /** Binds a fresh count to this thread for the exchange about to run. */
    static ExchangeBytes begin() {
        ExchangeBytes bytes = new ExchangeBytes();
        CURRENT.set(bytes);
        return bytes;
    }

    /** Unbinds this thread's count. */
    void end() {
        CURRENT.remove();
    }

    /** Whether the request reached a connection. */
    boolean counted() {
        return sent >= 0;
    }

    /** Request bytes written, 0 when the request reached no connection. */
    long sent() {
        return Math.max(0, sent);
    }

    /** Answer bytes read (so far, when the answer was never finished), 0 without a connection. */
    long received() {
        if (received >= 0) {
            return received;
        }
        return connection == null ? 0 : Math.max(0, connection.getReceivedBytesCount() - receivedBefore);
    }

    private void answerEnded() {
        received = connection.getReceivedBytesCount() - receivedBefore;
    }

    /** The request executor that counts into the thread's {@link ExchangeBytes}. */
    static HttpRequestExecutor executor() {
        return EXECUTOR;
    }

    private static final class CountingExecutor extends HttpRequestExecutor {

        @Override
        public ClassicHttpResponse execute(
                ClassicHttpRequest request,
                HttpClientConnection conn,
                HttpResponseInformationCallback informationCallback,
                HttpContext context)
                throws IOException, HttpException {
            ExchangeBytes bytes = CURRENT.get();
            EndpointDetails details = bytes == null ? null : conn.getEndpointDetails();
            if (details == null) {
                return super.execute(request, conn, informationCallback, context);
            }
            bytes.connection = details;
            bytes.sentBefore = details.getSentBytesCount();
            bytes.receivedBefore = details.getReceivedBytesCount();
            ClassicHttpResponse response = super.execute(request, conn, informationCallback, context);
            // the request is written and flushed, the answer's head read
            bytes.sent = details.getSentBytesCount() - bytes.sentBefore;
            HttpEntity entity = response.getEntity();
            if (entity == null) {
                bytes.answerEnded();
            } else {
                response.setEntity(new CountedEntity(entity, bytes));
            }
            return response;
        }
    }

    /** Takes the answer's count when its body ends or is closed (which reads it to its end). */
    private static final class CountedEntity extends HttpEntityWrapper {
        private final ExchangeBytes bytes;

        CountedEntity(HttpEntity entity, ExchangeBytes bytes) {
            super(entity);
            this.bytes = bytes;
        }

        @Override
        public InputStream getContent() throws IOException {
            return new FilterInputStream(super.getContent()) {
                @Override
                public int read() throws IOException {
                    int b = super.read();
                    if (b < 0) {
                        bytes.answerEnded();
                    }
                    return b;
                }

                @Override
                public int read(byte[] buffer, int off, int len) throws IOException {
                    int n = super.read(buffer, off, len);
                    if (n < 0) {
                        bytes.answerEnded();
                    }
                    return n;
                }

                @Override
                public void close() throws IOException {
                    try {
                        super.close();
                    } finally {
                        bytes.answerEnded();
                    }
                }
            };
        }
    }
}
