// The setup script of the unshare sandbox, run by /bin/sh as root of a fresh user namespace (with
// fresh mount, pid, ipc, uts and, unless the network is allowed, net namespaces). It never sees the
// agent's command as code: the command arrives as arguments after `--` and is only ever `exec`ed.
//
// Arguments: tmp-mode cwd uid gid unshare-binary n note_1 … note_n -- argv…, each note a kind and a
// path: `w:` a writable folder, `p:` a folder pinned (bound onto itself: cannot be renamed away), `r:`
// a path bound read-only onto itself, `h:` a path hidden (an empty read-only tmpfs on a folder,
// /dev/null on a file; nothing when it is not there). Applied in order, after the writable folders.
//
// (The shell's ${…} is written ${'$'}{…} below: in a template literal, ${ starts a substitution.)
//
// Steps, each failing closed (exit 125, nothing run) with a message naming it:
//  1. a private tmpfs on /tmp is the staging area; the whole root tree is bound into it
//     (through /proc/self/fd, so it is bound as it was before the staging tmpfs hid /tmp);
//  2. every writable folder is bound aside before anything is made read-only;
//     (binds are recursive: in a sandbox run inside one of ours, the mounts that keep the host's files
//     are locked, and the kernel refuses a plain bind of a folder holding locked mounts);
//  3. every mount of the copied tree is remounted read-only (a mount that cannot be is an error,
//     unless no path reaches it; a mount whose name mountinfo escapes is an error too);
//  4. /dev becomes a minimal tmpfs (null, zero, full, random, urandom, tty): no disk devices;
//     /run and /var/run become empty: no host daemon sockets (docker, dbus);
//     /tmp becomes a fresh tmpfs unless tmp-mode is read-only;
//  5. the writable folders are bound back, writable; the other notes are applied (what the host runs
//     kept read-only inside them, secrets hidden); a fresh /proc for the new pid namespace;
//  6. pivot_root into the copy and detach the old root: nothing outside it is reachable;
//  7. exec the command inside one more user namespace, mapped back to the caller's uid and gid:
//     the mounts are then locked, so the command cannot remount them writable or unmount them.
export const UNSHARE_SETUP = String.raw`fail() { printf 'agent-hooks sandbox (unshare): %s\n' "$1" >&2; exit 125; }
saved_path=$PATH
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
tmp=$1 cwd=$2 uid=$3 gid=$4 unshare=$5 n=$6
shift 6 || fail 'bad arguments'
S=/tmp
exec 3</ || fail 'cannot open /'
mount --make-rprivate / || fail 'cannot make the mounts private'
mount -t tmpfs -o mode=700 agent-hooks-sandbox "$S" || fail "cannot mount a tmpfs on $S"
mkdir "$S/root" || fail 'cannot create the staging folder'
mount --rbind /proc/self/fd/3 "$S/root" || fail 'cannot bind the root folder'
exec 3<&-
umount -l "$S/root$S" || fail 'cannot detach the staging copy'
i=0
while [ "$i" -lt "$n" ]; do
  case $1 in
    w:/*)
      w=${'$'}{1#w:}
      [ -d "$S/root$w" ] || fail "the writable folder $w does not exist"
      mkdir "$S/w$i" && mount --rbind "$S/root$w" "$S/w$i" || fail "cannot bind $w" ;;
    [prh]:/*) ;;
    *) fail 'bad arguments' ;;
  esac
  printf '%s' "$1" > "$S/p$i" || fail 'cannot note a folder'
  shift; i=$((i+1))
done
[ "$1" = -- ] || fail 'bad arguments'
shift
cut -d' ' -f5 /proc/self/mountinfo | grep -e "^$S/root\$" -e "^$S/root/" | while IFS= read -r mp; do
  case $mp in *\\*) exit 1 ;; esac
  # A mount hidden under another one (no path reaches it) cannot be remounted, nor reached.
  mount -o remount,bind,ro "$mp" 2>/dev/null || [ ! -e "$mp" ] || exit 1
done || fail 'cannot make every mount read-only (one of them has an escaped name, or refused)'
mount -t tmpfs -o mode=755 agent-hooks-dev "$S/root/dev" || fail 'cannot mount /dev'
for d in null zero full random urandom tty; do
  if [ -e "/dev/$d" ]; then : > "$S/root/dev/$d" && mount --bind "/dev/$d" "$S/root/dev/$d" || fail "cannot bind /dev/$d"; fi
done
ln -s /proc/self/fd "$S/root/dev/fd" && ln -s fd/0 "$S/root/dev/stdin" && ln -s fd/1 "$S/root/dev/stdout" && ln -s fd/2 "$S/root/dev/stderr" || fail 'cannot link /dev/fd'
mount -o remount,bind,ro "$S/root/dev" || fail 'cannot make /dev read-only'
for d in /run /var/run; do
  if [ -d "$S/root$d" ] && [ ! -L "$S/root$d" ]; then mount -t tmpfs -o ro,mode=755 agent-hooks-run "$S/root$d" || fail "cannot hide $d"; fi
done
if [ "$tmp" = private ]; then mount -t tmpfs -o mode=1777 agent-hooks-tmp "$S/root/tmp" || fail 'cannot mount a private /tmp'; fi
i=0
while [ "$i" -lt "$n" ]; do
  e=$(cat "$S/p$i") || fail 'cannot read a note'
  p=${'$'}{e#?:}
  t=$S/root$p
  case $e in
    w:*)
      [ -d "$t" ] || mkdir -p "$t" || fail "cannot recreate $p"
      mount --rbind "$S/w$i" "$t" && mount -o remount,bind,rw "$t" || fail "cannot make $p writable" ;;
    p:*)
      [ -d "$t" ] && [ ! -L "$t" ] || fail "cannot pin $p: not a folder"
      mount --rbind "$t" "$t" || fail "cannot pin $p" ;;
    r:*)
      [ -e "$t" ] && [ ! -L "$t" ] || fail "cannot keep $p read-only: it is not there"
      mount --rbind "$t" "$t" && mount -o remount,bind,ro "$t" || fail "cannot keep $p read-only" ;;
    h:*)
      if [ -d "$t" ] && [ ! -L "$t" ]; then mount -t tmpfs -o ro,mode=555 agent-hooks-hidden "$t" || fail "cannot hide $p"
      elif [ -e "$t" ]; then mount --bind /dev/null "$t" || fail "cannot hide $p"; fi ;;
  esac
  i=$((i+1))
done
mount -t proc proc "$S/root/proc" || fail 'cannot mount /proc'
cd "$S/root" || fail 'cannot enter the new root'
pivot_root . . || fail 'pivot_root failed'
umount -l . || fail 'cannot detach the old root'
cd / && cd "$cwd" || fail "cannot enter $cwd"
PATH=$saved_path
unset SSH_AUTH_SOCK
if [ "$tmp" = private ]; then export TMPDIR=/tmp; fi
exec "$unshare" --user --mount --map-user="$uid" --map-group="$gid" -- "$@"`;
