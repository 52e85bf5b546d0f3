// SPDX-License-Identifier: GPL-2.0
/*
 * ustack-syms: annotate and check a user-space stack trace (innermost
 * first) that the kernel recorded for another process, against the ELF
 * files that process maps. Debian's dash and libc have no frame pointers
 * and are stripped, so this is how the tests see whether the unwinder's
 * frames are real: each return address must land in a function and just
 * after a call instruction.
 *
 * Usage: ustack-syms MAPS_FILE < ADDRS
 *   MAPS_FILE: a saved copy of /proc/PID/maps of the traced process
 *   ADDRS: one hex address per line (0x optional, blank lines ignored)
 * Prints per address "#N ADDR PATH+0xFILEOFF SYMBOL+0xOFF call=yes|no|n/a"
 * (SYMBOL: the STT_FUNC/IFUNC symbols of .symtab, else .dynsym, covering
 * it, aliases joined by '|'; "-" if none; "? ?" if ADDR is not in an
 * executable file mapping; #0 is the interrupted pc, so its call= is n/a),
 * then "frames=N unmapped=U notcall=C edges=E badedges=B". Exit 0, or 2
 * on a usage error or an unreadable MAPS_FILE.
 *
 * ppc64 also checks each edge of the chain (" edge=ok|bad|n/a" per
 * frame): when the call before a return address is a bl to a function's
 * entry in the same file (the start of a function in .eh_frame_hdr's
 * table, or up to 64 bytes after it: ELFv2's local entry), the frame
 * before must lie in that function; when the bl goes to a call stub
 * (no function starts there: the PLT's), the frame before must lie in
 * another file. A doubled or a lost frame breaks one of them, unless the
 * call was through a pointer (bctrl: n/a).
 * Reads ELF structures in host order: both guests are little-endian.
 */
#include <ctype.h>
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_MAPS	1024
#define MAX_FILES	64
#define MAX_LOADS	16
#define MAX_ALIAS	8
#define PATH_LEN	512

/* Only executable file mappings are kept: any other address is "? ?". */
struct map {
	uint64_t start, end, off;
	char path[PATH_LEN];
};

/* One per distinct file: a process maps each file several times. */
struct elf {
	char path[PATH_LEN];
	int fd;			/* -1: cannot open, or not an ELF64 LE file */
	uint16_t machine;
	uint64_t size;
	Elf64_Phdr load[MAX_LOADS];
	int nload;
	Elf64_Sym *sym;
	size_t nsym;
	char *str;		/* NUL added after the last byte */
	uint64_t strsz;
	uint64_t *fstart;	/* function starts, sorted (.eh_frame_hdr) */
	size_t nfstart;
};

static struct map maps[MAX_MAPS];
static int nmaps;
static struct elf files[MAX_FILES];
static int nfiles;

/* Is [off, off + len) inside a file of @size bytes? Written not to overflow. */
static int in_file(uint64_t off, uint64_t len, uint64_t size)
{
	return len <= size && off <= size - len;
}

/* Bounds-checked read; one pread is enough for a regular file. */
static int read_at(struct elf *e, void *buf, uint64_t len, uint64_t off)
{
	if (!in_file(off, len, e->size))
		return -1;
	return pread(e->fd, buf, len, off) == (ssize_t)len ? 0 : -1;
}

/* Take .symtab if the file has one, else .dynsym; no symbols is not an error. */
static void load_syms(struct elf *e, const Elf64_Ehdr *eh)
{
	static const uint32_t types[] = { SHT_SYMTAB, SHT_DYNSYM };
	Elf64_Shdr sh, st;
	int t, i;

	if (eh->e_shentsize != sizeof(sh) ||
	    !in_file(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(sh), e->size))
		return;
	for (t = 0; t < 2; t++) {
		for (i = 0; i < eh->e_shnum; i++) {
			if (read_at(e, &sh, sizeof(sh), eh->e_shoff + i * sizeof(sh)) ||
			    sh.sh_type != types[t] ||
			    sh.sh_entsize != sizeof(Elf64_Sym) ||
			    sh.sh_size < sizeof(Elf64_Sym) ||
			    sh.sh_link >= eh->e_shnum ||
			    read_at(e, &st, sizeof(st),
				    eh->e_shoff + sh.sh_link * sizeof(st)) ||
			    st.sh_type != SHT_STRTAB ||
			    !in_file(sh.sh_offset, sh.sh_size, e->size) ||
			    !in_file(st.sh_offset, st.sh_size, e->size))
				continue;
			e->sym = malloc(sh.sh_size);
			e->str = malloc(st.sh_size + 1);
			if (!e->sym || !e->str ||
			    read_at(e, e->sym, sh.sh_size, sh.sh_offset) ||
			    read_at(e, e->str, st.sh_size, st.sh_offset)) {
				free(e->sym);
				free(e->str);
				e->sym = NULL;
				e->str = NULL;
				continue;
			}
			e->str[st.sh_size] = 0;
			e->strsz = st.sh_size;
			e->nsym = sh.sh_size / sizeof(Elf64_Sym);
			return;
		}
	}
}

/*
 * The function starts of .eh_frame_hdr's search table (PT_GNU_EH_FRAME),
 * in the encoding GNU ld writes: a 4-byte eh_frame_ptr, a udata4 count
 * and pairs of sdata4 offsets from the header's own address. Any other
 * encoding leaves the file without a table (edges n/a).
 */
static void load_fstarts(struct elf *e, const Elf64_Phdr *ph)
{
	unsigned char h[12];
	uint32_t count, i;
	int32_t pair[2];

	if (ph->p_filesz < sizeof(h) || read_at(e, h, sizeof(h), ph->p_offset) ||
	    h[0] != 1 || (h[1] & 0x0f) != 0x0b || h[2] != 0x03 ||
	    h[3] != 0x3b)
		return;
	memcpy(&count, h + 8, 4);
	if (!count || count > (ph->p_filesz - sizeof(h)) / sizeof(pair))
		return;
	e->fstart = malloc(count * sizeof(*e->fstart));
	if (!e->fstart)
		return;
	for (i = 0; i < count; i++) {
		if (read_at(e, pair, sizeof(pair),
			    ph->p_offset + sizeof(h) + i * sizeof(pair))) {
			free(e->fstart);
			e->fstart = NULL;
			return;
		}
		e->fstart[i] = ph->p_vaddr + (int64_t)pair[0];
		/* the table is sorted; a file that says otherwise is not used */
		if (i && e->fstart[i] < e->fstart[i - 1]) {
			free(e->fstart);
			e->fstart = NULL;
			return;
		}
	}
	e->nfstart = count;
}

/* The start of the function @va is in: the last table entry <= @va, or 0 */
static uint64_t fstart_of(struct elf *e, uint64_t va)
{
	size_t lo = 0, hi = e->nfstart;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->fstart[mid] <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? e->fstart[lo - 1] : 0;
}

/* NULL when more than MAX_FILES files are needed; fd < 0 when unusable. */
static struct elf *get_elf(const char *path)
{
	struct elf *e;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	struct stat sb;
	int i;

	for (i = 0; i < nfiles; i++)
		if (!strcmp(files[i].path, path))
			return &files[i];
	if (nfiles == MAX_FILES)
		return NULL;
	e = &files[nfiles++];
	snprintf(e->path, sizeof(e->path), "%s", path);
	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0)
		return e;
	if (fstat(e->fd, &sb) || !S_ISREG(sb.st_mode))
		goto bad;
	e->size = sb.st_size;
	if (read_at(e, &eh, sizeof(eh), 0) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_phentsize != sizeof(ph) ||
	    !in_file(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(ph), e->size))
		goto bad;
	e->machine = eh.e_machine;
	for (i = 0; i < eh.e_phnum && e->nload < MAX_LOADS; i++) {
		if (read_at(e, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)))
			goto bad;
		if (ph.p_type == PT_LOAD)
			e->load[e->nload++] = ph;
		else if (ph.p_type == PT_GNU_EH_FRAME && !e->fstart)
			load_fstarts(e, &ph);
	}
	load_syms(e, &eh);
	return e;
bad:
	close(e->fd);
	e->fd = -1;
	return e;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char * const *)a, *(const char * const *)b);
}

/*
 * Print the innermost (highest st_value) function covering @vaddr with all
 * its names, sorted, so a test can match any alias (__libc_read|__read|read).
 */
static void print_sym(struct elf *e, uint64_t vaddr)
{
	const char *name[MAX_ALIAS];
	uint64_t best = 0;
	int n = 0, i;
	size_t k;

	for (k = 0; k < e->nsym; k++) {
		const Elf64_Sym *s = &e->sym[k];
		int type = ELF64_ST_TYPE(s->st_info);
		const char *nm;

		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    !s->st_size || s->st_shndx == SHN_UNDEF ||
		    !s->st_name || s->st_name >= e->strsz ||
		    vaddr < s->st_value || vaddr - s->st_value >= s->st_size ||
		    (n && s->st_value < best))
			continue;
		nm = e->str + s->st_name;
		if (!n || s->st_value > best) {
			best = s->st_value;
			n = 0;
		}
		for (i = 0; i < n && strcmp(name[i], nm); i++)
			;
		if (i == n && n < MAX_ALIAS)
			name[n++] = nm;
	}
	if (!n) {
		printf(" -");
		return;
	}
	qsort(name, n, sizeof(*name), cmp_name);
	putchar(' ');
	for (i = 0; i < n; i++)
		printf("%s%s", i ? "|" : "", name[i]);
	printf("+0x%" PRIx64, vaddr - best);
}

/* Is @va in an executable segment? True if unknown: there is no check. */
static int in_text(struct elf *e, uint64_t va)
{
	int i;

	if (!e->nload)
		return 1;
	for (i = 0; i < e->nload; i++)
		if ((e->load[i].p_flags & PF_X) && va >= e->load[i].p_vaddr &&
		    va - e->load[i].p_vaddr < e->load[i].p_memsz)
			return 1;
	return 0;
}

/* Length of ff /r from its ModRM (and SIB); 0 if @len bytes cannot hold it */
static int ff_len(const unsigned char *p, int len)
{
	int mod = p[1] >> 6, rm = p[1] & 7, l = 2;

	if (mod == 3)
		return 2;
	if (rm == 4) {			/* SIB follows */
		if (len < 3)
			return 0;
		l = 3;
		if (mod == 0 && (p[2] & 7) == 5)
			return 7;	/* no base: disp32 */
	}
	if (mod == 1)
		return l + 1;
	if (mod == 2)
		return l + 4;
	return rm == 5 ? 6 : l;		/* mod 0, rm 5: rip-relative disp32 */
}

/*
 * x86 cannot be decoded backwards, so this is a heuristic: the @n bytes
 * before the address end with a call rel32 (e8), or with an ff /2 (call
 * indirect) whose ModRM/SIB give it exactly the length that ends there
 * (2, 3, 4, 6 or 7). A REX prefix (41..4f) sits before the ff and changes
 * neither that length nor the rm=4/rm=5 special cases, so it needs no
 * check of its own. An e8 must also call into this file's code, as
 * position-independent code does (calls out go through the PLT): that
 * rules out most e8 bytes inside other instructions (sub $x,%eax). Other
 * bytes that look like a call still give a false "yes" (about 1 in 2000
 * instruction ends of Debian's libc); segment-prefixed calls a false "no".
 */
static int x86_call(struct elf *e, const unsigned char *b, int n, uint64_t va)
{
	const unsigned char *p;
	int32_t rel;
	int len;

	if (n >= 5 && b[n - 5] == 0xe8) {
		memcpy(&rel, b + n - 4, 4);
		if (in_text(e, va + rel))
			return 1;
	}
	for (len = 2; len <= 7 && len <= n; len++) {
		p = b + n - len;
		if (p[0] == 0xff && ((p[1] >> 3) & 7) == 2 && ff_len(p, len) == len)
			return 1;
	}
	return 0;
}

/* Is the instruction before file offset @off (@va) a call? Read the file. */
static const char *is_call(struct elf *e, uint64_t off, uint64_t va)
{
	unsigned char b[8];
	int n = off < sizeof(b) ? (int)off : (int)sizeof(b);
	uint32_t insn;

	if (e->machine != EM_PPC64 && e->machine != EM_X86_64)
		return "n/a";
	if (!n || read_at(e, b, n, off - n))
		return "no";
	if (e->machine == EM_X86_64)
		return x86_call(e, b, n, va) ? "yes" : "no";
	if (n < 4)
		return "no";
	insn = b[n - 4] | b[n - 3] << 8 | (uint32_t)b[n - 2] << 16 |
	       (uint32_t)b[n - 1] << 24;
	if ((insn & 0xfc000003) == 0x48000003)		/* bla */
		return "yes";
	if ((insn & 0xfc000003) == 0x48000001 &&	/* bl into this file */
	    in_text(e, va - 4 + ((int32_t)((insn & 0x03fffffc) << 6) >> 6)))
		return "yes";
	if ((insn & 1) && ((insn & 0xfc0007fe) == 0x4c000420 ||	/* bcctrl */
			   (insn & 0xfc0007fe) == 0x4c000020 ||	/* bclrl */
			   (insn & 0xfc0007fe) == 0x4c000460))	/* bctarl */
		return "yes";
	return "no";
}

/*
 * The edge from the frame before (@pe, function start @pfs, 0: unknown)
 * to the return address at @off (@va) of @e: see the top of the file.
 */
static const char *edge(struct elf *e, uint64_t off, uint64_t va,
			struct elf *pe, uint64_t pfs)
{
	unsigned char b[4];
	uint32_t insn;
	uint64_t t, ft;

	if (e->machine != EM_PPC64 || !e->nfstart || !va || off < 4 ||
	    read_at(e, b, 4, off - 4))
		return "n/a";
	insn = b[0] | b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	if ((insn & 0xfc000003) != 0x48000001)
		return "n/a";
	t = va - 4 + ((int32_t)((insn & 0x03fffffc) << 6) >> 6);
	if (!in_text(e, t))
		return "n/a";
	ft = fstart_of(e, t);
	if (ft && t - ft <= 64)
		return pe == e && pfs == ft ? "ok" : "bad";
	return pe && pe != e ? "ok" : "bad";
}

static int read_maps(const char *file)
{
	char line[PATH_LEN + 128], perms[8], *path;
	uint64_t s, e, o;
	FILE *f = fopen(file, "r");
	int pos, c;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strchr(line, '\n') && !feof(f)) {
			/* over-long path: drop the line, a cut path would lie */
			while ((c = getc(f)) != EOF && c != '\n')
				;
			continue;
		}
		pos = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n",
			   &s, &e, perms, &o, &pos) != 4 || !pos)
			continue;
		path = line + pos;
		path[strcspn(path, "\n")] = 0;
		if (path[0] != '/' || !strchr(perms, 'x') || nmaps == MAX_MAPS)
			continue;
		maps[nmaps].start = s;
		maps[nmaps].end = e;
		maps[nmaps].off = o;
		snprintf(maps[nmaps].path, PATH_LEN, "%s", path);
		nmaps++;
	}
	c = ferror(f);
	fclose(f);
	return c ? -1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long frames = 0, unmapped = 0, notcall = 0, edges = 0;
	unsigned long badedges = 0;
	char line[256], *p, *end;
	const char *call, *ed;
	struct elf *e, *pe = NULL;
	struct map *m;
	uint64_t a, off, va, pfs = 0;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: ustack-syms MAPS_FILE < ADDRS\n");
		return 2;
	}
	if (read_maps(argv[1])) {
		perror(argv[1]);
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		for (p = line; isspace((unsigned char)*p); p++)
			;
		a = strtoull(p, &end, 16);
		if (end == p)			/* blank (or not hex) */
			continue;
		printf("#%lu 0x%" PRIx64, frames, a);
		for (m = NULL, i = 0; i < nmaps && !m; i++)
			if (maps[i].start <= a && a < maps[i].end)
				m = &maps[i];
		off = m ? a - m->start + m->off : 0;
		if (m)
			printf(" %s+0x%" PRIx64, m->path, off);
		else
			printf(" ?");
		e = m ? get_elf(m->path) : NULL;
		if (!e || e->fd < 0) {
			printf(" ? call=n/a edge=n/a\n");
			unmapped++;
			frames++;
			pe = NULL;
			pfs = 0;
			continue;
		}
		for (i = 0; i < e->nload; i++)
			if (off >= e->load[i].p_offset &&
			    off - e->load[i].p_offset < e->load[i].p_filesz)
				break;
		if (i < e->nload) {
			va = off - e->load[i].p_offset + e->load[i].p_vaddr;
			print_sym(e, va);
		} else {
			va = 0;
			printf(" -");
		}
		call = frames ? is_call(e, off, va) : "n/a";
		if (!strcmp(call, "no"))
			notcall++;
		ed = frames ? edge(e, off, va, pe, pfs) : "n/a";
		edges += strcmp(ed, "n/a") != 0;
		badedges += !strcmp(ed, "bad");
		printf(" call=%s edge=%s\n", call, ed);
		pe = e;
		pfs = va && e->nfstart ? fstart_of(e, va) : 0;
		frames++;
	}
	printf("frames=%lu unmapped=%lu notcall=%lu edges=%lu badedges=%lu\n",
	       frames, unmapped, notcall, edges, badedges);
	return 0;
}
