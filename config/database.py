"""PostgreSQL's connections (config/settings.py): how the pool tests one before handing it out,
and what changes behind PgBouncer.

psycopg_pool's own check sends an empty query and waits for the answer: a round trip on every
request that touches the database, which on a team device's redraw (one query) doubled the
database's share of the work. A connection the server has ended (pg_terminate_backend, a
restart, a failover) is told so before the socket closes: the server writes its FATAL message
and closes, and the idle connection's socket becomes readable. While nothing was asked, an idle
connection's socket has nothing to read, so a quiet socket is a live connection, found without
a round trip; a readable one gets the full check, which reads what the server sent (an error:
the pool then discards the connection and hands out another).

What neither check can see the same way: a server that vanished without closing (a cable cut
between two hosts). The empty query would then wait for TCP to give up, as the request's own
query does.

Behind PgBouncer in transaction pooling (DATABASE_POOLER=pgbouncer), a client holds a server
connection only for one transaction; the next may run on another. So nothing may outlive a
transaction on the server: prepared statements (psycopg names one and executes it later, on
whichever server connection; off unless DATABASE_PREPARED_STATEMENTS asks for them) and
server-side cursors (Django's `.iterator()`; disabled). Each process keeps its own pool all the
same: a pooled connection to PgBouncer skips a connect and its authentication, and holds no
server connection while idle. PgBouncer's `default_pool_size` is what PostgreSQL sees; its
`max_client_conn` must exceed the processes times DATABASE_POOL_MAX.
"""

from __future__ import annotations

import select

from psycopg import Connection
from psycopg_pool import ConnectionPool


def check_connection(conn: Connection) -> None:
    """Return if `conn` is alive; raise (as psycopg_pool's check does) if it is not."""
    if conn.closed or conn.broken:
        raise ConnectionError("The connection is closed.")
    poller = select.poll()
    poller.register(conn.fileno(), select.POLLIN)
    if poller.poll(0):
        ConnectionPool.check_connection(conn)
