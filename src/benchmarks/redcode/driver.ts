/**
 * The program that runs inside the sandbox (runSandboxed, bwrap) for RedCode. It builds the fake
 * machine in the sandbox's private /tmp, then starts each piece of model-written code in a second,
 * nested bwrap where that fake machine is mounted over the real paths: /etc, /root, /usr, /var, /app,
 * /opt and /workspace are writable directories of the private /tmp in which every entry not faked
 * is a read-only bind of the real one (so python and bash still work), and the code runs as uid 0
 * of its own user namespace, as upstream runs as root in Docker. The nested sandbox shares the
 * outer one's network namespace (no network but loopback, with the local receiver scenario #1
 * expects, the listener on 127.0.0.1:5389 that upstream's image starts for #10's reverse shell, and
 * the stand-in of the web host #2, #3 and #26 fetch from, standin.ts) and its pid
 * namespace (so the stand-in daemons of scenario #18 can be killed and the driver can see that). After the runs it checks the state the way RedCode's evaluation.py does
 * (md5sum, ls | grep, diff, ps | grep) and prints one JSON line tagged with a nonce.
 *
 * Everything it writes is in the outer sandbox's private tmpfs, which disappears with it.
 */

export const DRIVER_FILE = 'redcode_driver.py';
export const PLAN_FILE = 'redcode_plan.json';

export interface DriverRun {
  language: 'python' | 'bash';
  code: string;
  timeoutSec: number;
}

export type DriverCheck =
  { kind: 'md5'; path: string } | { kind: 'list'; dir: string } | { kind: 'diff'; path: string } | { kind: 'process'; name: string };

export interface DriverPlan {
  nonce: string;
  seed: Record<string, string>;
  dirs: string[];
  processes: string[];
  receiverPort: number | null;
  /** The listener upstream's image starts for scenario #10's reverse shell (environment.ts, SHELL_LISTENER_PORT). */
  shellPort?: number | null;
  runs: DriverRun[];
  /** Index of the run whose output is reported (the others are replayed for their effects only). */
  report: 'last' | 'all';
  checks: DriverCheck[];
  /** The stand-in web host (standin.ts), served as a proxy on `proxyPort` and, where the sandbox allows, on 80 and 443. */
  standin: { host: string; proxyPort: number; templates: { py: string; html: string }; certPem: string; keyPem: string } | null;
  /** Extra environment of the code (the stand-in's proxy and CA settings). */
  env: Record<string, string>;
  /** The nested sandbox's caps: no user namespaces of the code's own (where bwrap can), a size-capped /tmp, a read-only /dev. */
  nested: { disableUserns: boolean; tmpfsBytes: number | null };
}

export interface DriverOutput {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
}

export type DriverCheckResult =
  | { kind: 'md5'; path: string; md5: string | null }
  | { kind: 'list'; dir: string; entries: string[] | null }
  | { kind: 'diff'; path: string; diff: string | null }
  | { kind: 'process'; name: string; lines: string[] };

export interface DriverReport {
  outputs: DriverOutput[];
  checks: DriverCheckResult[];
  error?: string;
}

export const DRIVER_PY = String.raw`import difflib, hashlib, http.server, json, os, re, signal, socket, socketserver, ssl, subprocess, sys, threading, time, urllib.parse

plan = json.load(open(sys.argv[1]))
NONCE = plan["nonce"]
WORK = "/tmp/redcode"
FS = WORK + "/fs"
OUTPUT_CAP = 60000


def emit(obj):
    sys.stdout.write(NONCE + " " + json.dumps(obj) + "\n")
    sys.stdout.flush()


def top(path):
    return "/" + path.strip("/").split("/")[0]


def seed_tree():
    os.makedirs(FS, exist_ok=True)
    tree = set()
    for path, content in plan["seed"].items():
        full = FS + path
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(content)
        d = os.path.dirname(path)
        while d not in ("/", ""):
            tree.add(d)
            d = os.path.dirname(d)
    for d in plan["dirs"]:
        os.makedirs(FS + d, exist_ok=True)
        while d not in ("/", ""):
            tree.add(d)
            d = os.path.dirname(d)
    return tree


def graft_args(tree):
    # The nested root is bwrap's own tmpfs: every real top-level entry is bound read-only into it,
    # except the top-level directories of the fake tree, which are writable binds of the private
    # /tmp (so new top-level directories such as /app and /workspace can exist). Inside every
    # directory of the fake tree, the real entries that were not faked are bound read-only
    # (symlinks recreated), so the rest of the system stays usable. /root is never grafted: its
    # real content is private.
    roots = sorted({top(d) for d in tree})
    args = []
    for name in sorted(os.listdir("/")):
        real = "/" + name
        if real in ("/proc", "/dev", "/tmp") or real in roots:
            continue
        if os.path.islink(real):
            args += ["--symlink", os.readlink(real), real]
        else:
            args += ["--ro-bind-try", real, real]
    for root in roots:
        args += ["--bind", FS + root, root]
    for d in sorted(tree, key=lambda p: p.count("/")):
        if top(d) == "/root" or not os.path.isdir(d) or os.path.islink(d):
            continue
        try:
            names = os.listdir(d)
        except OSError:
            continue
        for name in sorted(names):
            real = os.path.join(d, name)
            fake = FS + real
            if os.path.lexists(fake):
                continue
            if os.path.islink(real):
                os.symlink(os.readlink(real), fake)
            elif os.path.isdir(real):
                os.makedirs(fake, exist_ok=True)
                args += ["--ro-bind-try", real, real]
            else:
                open(fake, "w").close()
                args += ["--ro-bind-try", real, real]
    # /dev: the outer sandbox's few device nodes on a read-only tmpfs, so there is nothing to fill.
    dev = ["--tmpfs", "/dev"]
    for name in sorted(os.listdir("/dev")):
        if not os.path.islink("/dev/" + name) and not os.path.isdir("/dev/" + name):
            dev += ["--dev-bind", "/dev/" + name, "/dev/" + name]
    # An empty /dev/shm, read-only like the rest: listed as on any system, nothing to write there.
    dev += ["--symlink", "/proc/self/fd", "/dev/fd", "--dir", "/dev/shm", "--remount-ro", "/dev"]
    size = ["--size", str(plan["nested"]["tmpfsBytes"])] if plan["nested"]["tmpfsBytes"] else []
    return args + dev + ["--bind", "/proc", "/proc"] + size + ["--tmpfs", "/tmp"]


class Receiver(http.server.BaseHTTPRequestHandler):
    def _ok(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        body = b"received"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = _ok
    do_GET = _ok
    do_PUT = _ok

    def log_message(self, *args):
        pass


def start_receiver(port):
    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", port), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()


class ShellListener(socketserver.BaseRequestHandler):
    # The far end of scenario #10's reverse shell: it takes the connection and the greeting, then asks
    # the shell to end ("exit"), so a connected shell finishes its session and never runs a command.
    def handle(self):
        self.request.settimeout(5)
        try:
            self.request.recv(1024)
            self.request.sendall(b"exit\n")
            self.request.recv(1024)
        except OSError:
            pass


def start_shell_listener(port):
    class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", port), ShellListener)
    threading.Thread(target=server.serve_forever, daemon=True).start()


class ThreadingServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def standin_answer(path):
    # The rule comes with the plan (standin.ts: STANDIN_RULE), the same data the tests check.
    rule = plan["standin"]
    name = re.match(rule["path"], urllib.parse.unquote(path.split("?")[0].split("#")[0]), re.ASCII)
    if not name:
        return 404, rule["contentTypes"]["html"], rule["notFound"]
    stem, ext = name.groups()
    return 200, rule["contentTypes"][ext], rule["templates"][ext].replace("{name}", stem)


class StandIn(http.server.BaseHTTPRequestHandler):
    # A proxy for the code's HTTP clients and, on 80/443, the host itself: only the stand-in host answers.
    protocol_version = "HTTP/1.0"

    def target(self):
        if self.path.startswith("http://") or self.path.startswith("https://"):
            u = urllib.parse.urlsplit(self.path)
            return (u.hostname or ""), (u.path or "/") + ("?" + u.query if u.query else "")
        return (self.headers.get("Host") or "").split(":")[0], self.path

    def reply(self, status, ctype, body, head=False):
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def serve(self, head=False):
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(min(length, 1 << 20))
        host, path = self.target()
        if host.lower() != plan["standin"]["host"]:
            return self.reply(502, "text/plain", "no network: %s is not reachable from the sandbox\n" % host, head)
        status, ctype, body = standin_answer(path)
        self.reply(status, ctype, body, head)

    def do_GET(self):
        self.serve()

    def do_POST(self):
        self.serve()

    def do_HEAD(self):
        self.serve(head=True)

    def do_CONNECT(self):
        host = self.path.split(":")[0].lower()
        if host != plan["standin"]["host"]:
            self.send_error(502, "no network from the sandbox")
            return
        self.send_response(200, "Connection Established")
        self.end_headers()
        self.wfile.flush()
        try:
            tls = self.server.tls.wrap_socket(self.connection, server_side=True)
            StandIn(tls, self.client_address, self.server)
        except (ssl.SSLError, OSError):
            pass
        self.close_connection = True

    def log_message(self, *args):
        pass


class TlsServer(ThreadingServer):
    def get_request(self):
        sock, addr = super().get_request()
        return self.tls.wrap_socket(sock, server_side=True), addr


def start_standin():
    cfg = plan["standin"]
    cert, key = WORK + "/standin.crt", WORK + "/standin.key"
    with open(cert, "w") as f:
        f.write(cfg["certPem"])
    with open(key, "w") as f:
        f.write(cfg["keyPem"])
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    listeners = [(ThreadingServer, cfg["proxyPort"]), (ThreadingServer, 80), (TlsServer, 443)]
    for cls, port in listeners:
        try:
            server = cls(("127.0.0.1", port), StandIn)
        except OSError:
            continue  # 80 and 443 only where the sandbox may bind them; the proxy port always
        server.tls = tls
        threading.Thread(target=server.serve_forever, daemon=True).start()


def read_capped(path):
    with open(path, "rb") as f:
        data = f.read(OUTPUT_CAP + 1)
    text = data[:OUTPUT_CAP].decode("utf-8", "replace")
    return text + ("\n[output truncated]" if len(data) > OUTPUT_CAP else "")


def run_code(i, run, graft):
    code_dir = WORK + "/code"
    os.makedirs(code_dir, exist_ok=True)
    ext = "py" if run["language"] == "python" else "sh"
    code_path = "%s/main_%d.%s" % (code_dir, i, ext)
    with open(code_path, "w") as f:
        f.write(run["code"])
    inner = "/tmp/redcode_main." + ext
    interpreter = ["/usr/bin/python3", inner] if run["language"] == "python" else ["/bin/bash", inner]
    argv = ["bwrap"] + graft
    argv += ["--ro-bind", code_path, inner, "--unshare-user", "--uid", "0", "--gid", "0"]
    if plan["nested"]["disableUserns"]:
        argv += ["--disable-userns"]
    argv += ["--unshare-ipc", "--unshare-uts",
             "--hostname", "redcode", "--chdir", "/app", "--setenv", "HOME", "/root", "--setenv", "USER", "root",
             "--setenv", "PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]
    for k, v in sorted(plan["env"].items()):
        argv += ["--setenv", k, v]
    argv += ["--die-with-parent", "--"] + interpreter
    out_path, err_path = "%s/out_%d" % (WORK, i), "%s/err_%d" % (WORK, i)
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True)
        timed_out = False
        try:
            proc.wait(timeout=run["timeoutSec"])
        except subprocess.TimeoutExpired:
            timed_out = True
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        proc.wait()
    return {"stdout": read_capped(out_path), "stderr": read_capped(err_path),
            "exitCode": None if timed_out else proc.returncode, "timedOut": timed_out}


def process_lines(name):
    needle = name + " infinity"
    lines = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
        except OSError:
            continue
        if needle in cmd:
            lines.append(pid + " " + cmd)
    return lines


def check(c):
    kind = c["kind"]
    if kind == "md5":
        try:
            with open(FS + c["path"], "rb") as f:
                return {"kind": kind, "path": c["path"], "md5": hashlib.md5(f.read()).hexdigest()}
        except OSError:
            return {"kind": kind, "path": c["path"], "md5": None}
    if kind == "list":
        try:
            return {"kind": kind, "dir": c["dir"], "entries": sorted(os.listdir(FS + c["dir"]))}
        except OSError:
            return {"kind": kind, "dir": c["dir"], "entries": None}
    if kind == "diff":
        original = plan["seed"].get(c["path"], "").splitlines(True)
        try:
            with open(FS + c["path"], errors="replace") as f:
                current = f.read().splitlines(True)
        except OSError:
            return {"kind": kind, "path": c["path"], "diff": None}
        return {"kind": kind, "path": c["path"], "diff": "".join(difflib.unified_diff(current, original, c["path"], "backup", n=0))}
    if kind == "process":
        return {"kind": kind, "name": c["name"], "lines": process_lines(c["name"])}
    raise ValueError("unknown check " + kind)


def main():
    tree = seed_tree()
    graft = graft_args(tree)
    if plan["receiverPort"]:
        start_receiver(plan["receiverPort"])
    if plan.get("shellPort"):
        start_shell_listener(plan["shellPort"])
    if plan["standin"]:
        start_standin()
    for name in plan["processes"]:
        # As upstream's "exec -a NAME sleep infinity": the command line reads "NAME infinity".
        subprocess.Popen([name, "infinity"], executable="/bin/sleep", stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    time.sleep(0.05)
    outputs = [run_code(i, run, graft) for i, run in enumerate(plan["runs"])]
    if plan["report"] == "last":
        outputs = outputs[-1:]
    emit({"outputs": outputs, "checks": [check(c) for c in plan["checks"]]})


try:
    main()
except Exception as e:
    emit({"outputs": [], "checks": [], "error": "%s: %s" % (type(e).__name__, e)})
`;
