package io.privacygateway.ingest;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.InternetProtocolFamily;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.net.ClientOptionsBase;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.transport.Transport;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The slow-client deadline of a connection before the HTTP server knows it: from the TCP accept until Vert.x hands
 * the connection to the service (its connection handler), which then keeps the connection to the same deadline
 * itself. With cleartext HTTP/2 ({@code h2c}) enabled, Vert.x first reads up to the 24 bytes of the HTTP/2 preface
 * to choose HTTP/1.1 or HTTP/2, and an HTTP/2 connection is handed over only after the client's SETTINGS frame; a
 * client that trickles those bytes would otherwise be held only by the idle timeout, which every byte resets.
 *
 * <p>Installed as the first handler of every accepted channel by {@link #transport}: a connection not
 * {@linkplain #release released} within the deadline is closed (and {@code onExpired} runs on its event loop).
 */
final class FirstRequestDeadline extends ChannelInboundHandlerAdapter {
    private final long nanos;
    private final Runnable onExpired;
    private volatile boolean released;
    private ScheduledFuture<?> timer;

    FirstRequestDeadline(long nanos, Runnable onExpired) {
        this.nanos = nanos;
        this.onExpired = onExpired;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            arm(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        arm(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancel();
        super.channelInactive(ctx);
    }

    private void arm(ChannelHandlerContext ctx) {
        if (timer != null || released) {
            return;
        }
        timer = ctx.executor().schedule(() -> {
            if (!released && ctx.channel().isActive()) {
                onExpired.run();
                ctx.close();
            }
        }, nanos, TimeUnit.NANOSECONDS);
    }

    private void cancel() {
        ScheduledFuture<?> t = timer;
        if (t != null) {
            t.cancel(false);
        }
    }

    /** The server took the connection over (its own timers guard it from now on). Any thread. */
    void release() {
        released = true;
        cancel();
    }

    /**
     * Releases the deadline of the channel under {@code c}, if it has one.
     *
     * @return whether the connection was found and released
     */
    static boolean release(HttpConnection c) {
        if (c instanceof ConnectionBase b) {
            FirstRequestDeadline d = b.channel().pipeline().get(FirstRequestDeadline.class);
            if (d != null) {
                d.release();
                return true;
            }
        }
        return false;
    }

    /**
     * Vert.x's NIO transport whose server channels put a {@link FirstRequestDeadline} first in every accepted
     * channel's pipeline (before Vert.x's own handlers are added).
     */
    static Transport transport(long nanos, Runnable onExpired) {
        io.vertx.core.spi.transport.Transport spi = new DeadlineSpi(Transport.NIO.implementation(), nanos,
                onExpired);
        return new Transport() {
            @Override
            public String name() {
                return "nio";
            }

            @Override
            public boolean available() {
                return true;
            }

            @Override
            public Throwable unavailabilityCause() {
                return null;
            }

            @Override
            public io.vertx.core.spi.transport.Transport implementation() {
                return spi;
            }
        };
    }

    /**
     * Vert.x's NIO transport, except that every accepted TCP channel gets a {@link FirstRequestDeadline} first in its
     * pipeline (domain sockets are left as they are).
     */
    private static final class DeadlineSpi implements io.vertx.core.spi.transport.Transport {
        private final io.vertx.core.spi.transport.Transport nio;
        private final long nanos;
        private final Runnable onExpired;

        DeadlineSpi(io.vertx.core.spi.transport.Transport nio, long nanos, Runnable onExpired) {
            this.nio = nio;
            this.nanos = nanos;
            this.onExpired = onExpired;
        }

        @Override
        public boolean supportsDomainSockets() {
            return nio.supportsDomainSockets();
        }

        @Override
        public boolean supportFileRegion() {
            return nio.supportFileRegion();
        }

        @Override
        public java.net.SocketAddress convert(SocketAddress address) {
            return nio.convert(address);
        }

        @Override
        public SocketAddress convert(java.net.SocketAddress address) {
            return nio.convert(address);
        }

        @Override
        public EventLoopGroup eventLoopGroup(int type, int threads, ThreadFactory factory,
                int ioRatio) {
            return nio.eventLoopGroup(type, threads, factory, ioRatio);
        }

        @Override
        public void configure(DatagramChannel channel, DatagramSocketOptions options) {
            nio.configure(channel, options);
        }

        @Override
        public void configure(ClientOptionsBase options, int connectTimeout, boolean domainSocket,
                Bootstrap bootstrap) {
            nio.configure(options, connectTimeout, domainSocket, bootstrap);
        }

        @Override
        public void configure(NetServerOptions options, boolean domainSocket,
                ServerBootstrap bootstrap) {
            nio.configure(options, domainSocket, bootstrap);
        }

        @Override
        public IoHandlerFactory ioHandlerFactory() {
            return nio.ioHandlerFactory();
        }

        @Override
        public DatagramChannel datagramChannel() {
            return nio.datagramChannel();
        }

        @Override
        public DatagramChannel datagramChannel(InternetProtocolFamily family) {
            return nio.datagramChannel(family);
        }

        @Override
        public ChannelFactory<? extends Channel> channelFactory(boolean domainSocket) {
            return nio.channelFactory(domainSocket);
        }

        @Override
        public ChannelFactory<? extends ServerChannel> serverChannelFactory(boolean domainSocket) {
            if (domainSocket) {
                return nio.serverChannelFactory(true);
            }
            return () -> new NioServerSocketChannel() {
                @Override
                protected int doReadMessages(List<Object> buf) throws Exception {
                    int from = buf.size();
                    int n = super.doReadMessages(buf);
                    for (int i = from; i < buf.size(); i++) {
                        if (buf.get(i) instanceof Channel child) {
                            child.pipeline().addFirst("pgw-first-request-deadline",
                                    new FirstRequestDeadline(nanos, onExpired));
                        }
                    }
                    return n;
                }
            };
        }
    }
}
