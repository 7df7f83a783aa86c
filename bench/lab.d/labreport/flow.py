"""The physical limit of a copy: the maximum flow over the lab's hosts and their links.

Each host has one link to its site's switch, shaped in both directions (net.sh): all of its
traffic shares v_i, and the part whose far end is in the other site is held to v_e within it.
A source datanode's bytes leave it through its own reader (a local read: no link) or over its
link to a reader on another host of its site; every reader sends over its own link to the
router, and the router reaches every writer of the other site. A writer on a datanode writes
the first replica on its own disk; a writer elsewhere (a spawned host) sends it over its link to
a datanode. Each further replica crosses one destination datanode's link out and another's in;
HDFS spreads replicas over the datanodes, so each datanode's link carries its even share of
them both ways.

Bytes may sit on some datanodes only (placement). The copy cannot end before each holder has
handed over its bytes, so the limit is the largest rate R at which every holder can supply its
share of R (its bytes over all bytes) at once through the graph: a static flow kept up for the
whole copy moves every byte, and any copy's average flow is such a flow. Blocks held on several
datanodes (replication on the source) may come from any of their holders.

Rates are in MB/s on the wire, as the caps are.
"""
from collections import deque

INFINITE = float("inf")
SOURCE, SINK, ROUTER = "bytes", "written", "router"


class Network:
    """Capacities on directed edges, named for what they stand for."""

    def __init__(self):
        self.capacity = {}
        self.names = {}

    def add(self, tail, head, capacity, name=None):
        self.capacity.setdefault(tail, {})
        self.capacity.setdefault(head, {})
        self.capacity[tail][head] = self.capacity[tail].get(head, 0.0) + capacity
        self.capacity[head].setdefault(tail, 0.0)
        if name:
            self.names[(tail, head)] = name

    def max_flow(self, source, sink):
        """Edmonds-Karp: the flow's value and the residual capacities."""
        residual = {u: dict(edges) for u, edges in self.capacity.items()}
        total = 0.0
        while True:
            parent = {source: None}
            queue = deque([source])
            while queue and sink not in parent:
                u = queue.popleft()
                for v, left in residual[u].items():
                    if left > 1e-12 and v not in parent:
                        parent[v] = u
                        queue.append(v)
            if sink not in parent:
                return total, residual
            path, v = [], sink
            while parent[v] is not None:
                path.append((parent[v], v))
                v = parent[v]
            pushed = min(residual[u][v] for u, v in path)
            if pushed == INFINITE:
                raise ValueError("a path of unlimited capacity from the bytes to the sink")
            for u, v in path:
                residual[u][v] -= pushed
                residual[v][u] += pushed
            total += pushed

    def cut(self, residual, source):
        """The named edges of a minimum cut: from what the source still reaches to the rest."""
        reached, queue = {source}, deque([source])
        while queue:
            u = queue.popleft()
            for v, left in residual[u].items():
                if left > 1e-9 and v not in reached:
                    reached.add(v)
                    queue.append(v)
        return sorted(name for (u, v), name in self.names.items()
                      if u in reached and v not in reached)


def host_names(site, datanodes, spawned):
    return ([f"{site}-dn{i + 1}" for i in range(datanodes)]
            + [f"{site}-sp{i + 1}" for i in range(spawned)])


def even_placement(datanodes, replication=1):
    """Every byte spread evenly: one group of holders per datanode, or, where each block has
    several replicas, every datanode a holder of all of them."""
    hosts = host_names("src", datanodes, 0)
    if replication > 1:
        return {tuple(hosts): 1.0}
    return {(host,): 1.0 / datanodes for host in hosts}


def _network(rate, v_e, v_i, readers, datanodes, writers, dst_datanodes, placement,
             replication):
    """The graph at copy rate `rate`, or None where replication alone overfills the
    destination datanodes' links. readers and writers count hosts (datanodes first, then
    spawned ones); `placement` maps tuples of holder hosts to their share of the bytes."""
    # Each further replica's in-site crossing, spread evenly: taken off every destination
    # datanode's link, in and out.
    extra = (replication - 1) * rate / max(1, dst_datanodes)
    if extra > v_i:
        return None
    net = Network()
    for group, share in placement.items():
        name = "+".join(group)
        net.add(SOURCE, ("group", name), rate * share)
        for host in group:
            net.add(("group", name), ("send", host), INFINITE)
    reading = host_names("src", min(readers, datanodes), max(0, readers - datanodes))
    for host in set(host_names("src", datanodes, 0)) | set(reading):
        # What leaves the host, bytes from its disk or what its reader got in-site, shares its
        # link; a host with a reader may send it to the other site (its own bytes then are a
        # local read), a host without one only to a reader in its site.
        net.add(("send", host), ("link-out", host), v_i, f"{host}: link out (v_i)")
        net.add(("link-out", host), ("switch", "src"), INFINITE)
        if host in reading:
            net.add(("link-out", host), ROUTER, v_e, f"{host}: to the other site (v_e)")
            net.add(("switch", "src"), ("link-in", host), v_i, f"{host}: link in (v_i)")
            net.add(("link-in", host), ("send", host), INFINITE)
    writing = host_names("dst", min(writers, dst_datanodes), max(0, writers - dst_datanodes))
    stored = host_names("dst", dst_datanodes, 0)
    for host in set(stored) | set(writing):
        datanode = host in stored
        room = v_i - extra if datanode else v_i
        net.add(("link-in", host), ("got", host), room, f"{host}: link in (v_i)")
        if host in writing:
            net.add(ROUTER, ("link-in", host), v_e, f"{host}: from the other site (v_e)")
        if datanode:
            # The first replica on its own disk; what a spawned writer hands it, likewise.
            net.add(("switch", "dst"), ("link-in", host), INFINITE)
            net.add(("got", host), SINK, INFINITE)
        else:
            net.add(("got", host), ("link-out", host), room, f"{host}: link out (v_i)")
            net.add(("link-out", host), ("switch", "dst"), INFINITE)
    return net


def copy_limit(v_e, v_i, readers, datanodes, writers, dst_datanodes=None, placement=None,
               replication=1, source_replication=1):
    """The largest copy rate the hosts allow, and the named links that bound it.

    v_e, v_i: each host's cap to the other site and its link's cap, MB/s (v_i None: no
    in-site cap). readers: source hosts that read and send (datanodes first, then spawned);
    writers: destination hosts that receive and write. placement: {holders: share of the
    bytes}; None spreads them evenly over the source datanodes."""
    if readers <= 0 or writers <= 0:
        return 0.0, []
    dst_datanodes = datanodes if dst_datanodes is None else dst_datanodes
    # HDFS keeps a block's replicas on distinct datanodes: with fewer datanodes than the
    # replication, each block stays under-replicated, one copy a datanode.
    replication = min(replication, max(1, dst_datanodes))
    if placement is None:
        placement = even_placement(datanodes, source_replication)
    in_site = INFINITE if v_i is None else v_i
    high = v_e * min(readers, writers)

    def flow(rate):
        net = _network(rate, v_e, in_site, readers, datanodes, writers, dst_datanodes,
                       placement, replication)
        if net is None:
            return None, 0.0, None
        value, residual = net.max_flow(SOURCE, SINK)
        return net, value, residual

    low = 0.0
    if flow(high)[1] >= high * (1 - 1e-9):
        low = high
    else:
        for _ in range(60):
            middle = (low + high) / 2
            if flow(middle)[1] >= middle * (1 - 1e-9):
                low = middle
            else:
                high = middle
    # What bounds it: a minimum cut just past the limit.
    net, _, residual = flow(low * 1.001 + 1e-9)
    if net is None:
        return low, [f"dst datanodes' links: replication {replication} fills them"]
    return low, net.cut(residual, SOURCE)
