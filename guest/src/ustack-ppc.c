/*
 * ustack-ppc: make getppid() calls from the places where a powerpc
 * back-chain walk must decide whether the innermost function's return
 * address is still in the link register, so that a deferred user stack
 * of each can be checked frame by frame (guest/tests/ustack-ppc.sh):
 *   leaf       a leaf without a frame (C)
 *   frame      a function with a frame, after it called a leaf, so that
 *              LR is stale (C)
 *   prologue   before the frame's stdu, LR saved but no frame yet (asm)
 *   epilogue   after the frame's pop, LR stale, the return address
 *              still at 16(r1) (asm)
 *   leafframe  a leaf with a frame that never saves LR (asm)
 *   signal     a leaf called by a SIGALRM handler that interrupted a
 *              busy loop: the walk crosses the signal frame
 *   fpleaf     a leaf built with a frame pointer (pops by addi r1,r31,N)
 *   glibcsc    glibc's sc wrapper shape: a frame, sc, a pop, then a
 *              conditional branch before the return
 *   scvdirect  libc's getppid(), called directly (scv where the CPU has
 *              it: LR is scv's own, the wrapper saved the real one)
 *   scvptr     the same through a function pointer, after a call that
 *              left a stale return address in the slot it could misread
 *   popfault   a page fault in an epilogue between "ld r0,16(r1)" and
 *              "mtlr r0" (the return address only in r0; the stack is
 *              asked for by kmem:mm_page_alloc, not getppid)
 *   tailfault  the same in an epilogue that ends in a sibling call
 *   spinhint   a leaf whose "or 1,1,1" (an SMT priority hint, not a pop)
 *              follows the sc
 *   longepi    after a frame's pop, 50 instructions before mtlr/blr
 *   ostail     a frame popped, then a jump to an out-of-line register
 *              restore that ends in ld r0; mtlr r0; blr (gcc -Os)
 *   scvintr    a SIGALRM handler's leaf, the signal having interrupted a
 *              frameless scv wrapper after its scv and before it restored
 *              LR (mflr r9 ... mtlr r9): LR is scv's own then, and the
 *              entry was an interrupt, not the scv (asm; glibc's
 *              setitimer() has that shape)
 * Each test function sits in a section of its own; the program prints
 * "range NAME START END" for each, then runs the mode ROUNDS times below
 * run(), outer() and mid(): the expected stack is
 *   NAME mid outer run main   (signal: leaf handler - spin mid outer run main,
 *                              scvintr: leaf handler - scvintr mid outer
 *                              run main,
 *                              "-" the vdso's sigreturn trampoline;
 *                              scvdirect, scvptr: - mid outer run main,
 *                              "-" libc's getppid)
 * Usage: ustack-ppc MODE ROUNDS
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/time.h>

#if defined(__powerpc64__) && defined(_CALL_ELF) && _CALL_ELF == 2

/*
 * The initramfs builds every helper with frame pointers; on powerpc that
 * gives every function a frame, the leaves included. The back chain needs
 * none, and the leaves here must have no frame.
 */
#pragma GCC optimize("omit-frame-pointer")

#define SECTION(n) __attribute__((noinline, used, section("ut_" #n)))
#define RANGE(n)							\
	extern char __start_ut_##n[], __stop_ut_##n[];			\
	static void range_##n(void)					\
	{								\
		printf("range %s %016lx %016lx\n", #n,		\
		       (unsigned long)__start_ut_##n,			\
		       (unsigned long)__stop_ut_##n);			\
	}

static volatile unsigned long sink;
static volatile int got;

/* getppid() by sc, clobbering what the syscall ABI lets the kernel */
#define SC_GETPPID()							\
	do {								\
		register long r0 asm("r0") = 64; /* __NR_getppid */	\
		register long r3 asm("r3");				\
		asm volatile("sc"					\
			     : "+r"(r0), "=r"(r3)			\
			     :						\
			     : "r4", "r5", "r6", "r7", "r8", "r9",	\
			       "r10", "r11", "r12", "cr0", "ctr",	\
			       "xer", "memory");			\
		sink += r3;						\
	} while (0)

SECTION(leaf) void leaf(void)
{
	SC_GETPPID();
}

SECTION(helper) void helper(void)
{
	sink++;
}

SECTION(frame) void frame(void)
{
	helper();
	SC_GETPPID();
	helper();
}

void prologue(void);
void epilogue(void);
void leafframe(void);
void nop_leaf(void);
void glibcsc(void);
void scvintr(volatile int *flag);
void saver(void);
void plant(void);
void popfault(char *p);
void tailfault(char *p);
void tailtgt(void);
void spinhint(void);
void longepi(void);
void ostail(void);

asm(
"	.section ut_prologue,\"ax\",@progbits\n"
"	.globl	prologue\n"
"	.type	prologue,@function\n"
"prologue:\n"
"	mflr	0\n"
"	std	0,16(1)\n"
"	li	0,64\n"
"	sc\n"
"	stdu	1,-32(1)\n"
"	addi	1,1,32\n"
"	ld	0,16(1)\n"
"	mtlr	0\n"
"	blr\n"
"	.size	prologue,.-prologue\n"
"	.section ut_nop_leaf,\"ax\",@progbits\n"
"	.globl	nop_leaf\n"
"	.type	nop_leaf,@function\n"
"nop_leaf:\n"
"	blr\n"
"	.size	nop_leaf,.-nop_leaf\n"
"	.section ut_epilogue,\"ax\",@progbits\n"
"	.globl	epilogue\n"
"	.type	epilogue,@function\n"
"epilogue:\n"
"	mflr	0\n"
"	std	0,16(1)\n"
"	stdu	1,-32(1)\n"
"	bl	nop_leaf\n"
"	addi	1,1,32\n"
"	li	0,64\n"
"	sc\n"
"	ld	0,16(1)\n"
"	mtlr	0\n"
"	blr\n"
"	.size	epilogue,.-epilogue\n"
"	.section ut_leafframe,\"ax\",@progbits\n"
"	.globl	leafframe\n"
"	.type	leafframe,@function\n"
"leafframe:\n"
"	stdu	1,-32(1)\n"
"	li	0,64\n"
"	sc\n"
"	addi	1,1,32\n"
"	blr\n"
"	.size	leafframe,.-leafframe\n"
/* glibc 2.36's sc wrappers (getppid() and the like, without scv) */
"	.section ut_glibcsc,\"ax\",@progbits\n"
"	.globl	glibcsc\n"
"	.type	glibcsc,@function\n"
"glibcsc:\n"
"	li	0,64\n"
"	stdu	1,-48(1)\n"
"	std	31,32(1)\n"
"	li	31,1\n"
"	sc\n"
"	cmpdi	5,31,0\n"
"	ld	31,32(1)\n"
"	addi	1,1,48\n"
"	beq	5,1f\n"
"	blr\n"
"1:	bnslr\n"
"	blr\n"
"	.size	glibcsc,.-glibcsc\n"
/*
 * scvintr: a frameless scv wrapper that waits for *r3 between its scv and
 * the restore of LR (getppid, 64). scv returns in r3 and clobbers r9-r12
 * and LR: the flag's address waits in the red zone, the LR in its slot.
 */
"	.section ut_scvintr,\"ax\",@progbits\n"
"	.globl	scvintr\n"
"	.type	scvintr,@function\n"
"scvintr:\n"
"	mflr	9\n"
"	std	9,16(1)\n"
"	std	3,-8(1)\n"
"	li	0,64\n"
"	scv	0\n"
"	ld	11,-8(1)\n"
"1:	lwz	10,0(11)\n"
"	cmpwi	10,0\n"
"	beq	1b\n"
"	ld	9,16(1)\n"
"	mtlr	9\n"
"	blr\n"
"	.size	scvintr,.-scvintr\n"
/* a non-leaf, to leave return addresses in its callers' slots */
"	.section ut_saver,\"ax\",@progbits\n"
"	.globl	saver\n"
"	.type	saver,@function\n"
"saver:	mflr	0\n"
"	std	0,16(1)\n"
"	stdu	1,-32(1)\n"
"	addi	1,1,32\n"
"	ld	0,16(1)\n"
"	mtlr	0\n"
"	blr\n"
"	.size	saver,.-saver\n"
/* a 48-byte frame whose callee leaves a return address in its slot */
"	.section ut_plant,\"ax\",@progbits\n"
"	.globl	plant\n"
"	.type	plant,@function\n"
"plant:	mflr	0\n"
"	std	0,16(1)\n"
"	stdu	1,-48(1)\n"
"	bl	saver\n"
"	nop\n"
"	addi	1,1,48\n"
"	ld	0,16(1)\n"
"	mtlr	0\n"
"	blr\n"
"	.size	plant,.-plant\n"
/*
 * popfault, tailfault: a store to a fresh page (r3) between ld r0 and
 * mtlr r0, then a return or a sibling call to tailtgt
 */
"	.macro	fault_epilogue name, last:vararg\n"
"	.section ut_\\name,\"ax\",@progbits\n"
"	.globl	\\name\n"
"	.type	\\name,@function\n"
"\\name:\n"
"	mflr	0\n"
"	std	0,16(1)\n"
"	stdu	1,-32(1)\n"
"	bl	saver\n"
"	nop\n"
"	addi	1,1,32\n"
"	ld	0,16(1)\n"
"	std	0,0(3)\n"
"	mtlr	0\n"
"	\\last\n"
"	.size	\\name,.-\\name\n"
"	.endm\n"
"	fault_epilogue popfault, blr\n"
"	.section ut_tailtgt,\"ax\",@progbits\n"
"	.globl	tailtgt\n"
"	.type	tailtgt,@function\n"
"tailtgt:	blr\n"
"	.size	tailtgt,.-tailtgt\n"
"	fault_epilogue tailfault, b tailtgt\n"
"	.section ut_spinhint,\"ax\",@progbits\n"
"	.globl	spinhint\n"
"	.type	spinhint,@function\n"
"spinhint:\n"
"	li	0,64\n"
"	sc\n"
"	or	1,1,1\n"
"	blr\n"
"	.size	spinhint,.-spinhint\n"
"	.section ut_longepi,\"ax\",@progbits\n"
"	.globl	longepi\n"
"	.type	longepi,@function\n"
"longepi:\n"
"	mflr	0\n"
"	std	0,16(1)\n"
"	stdu	1,-48(1)\n"
"	bl	nop_leaf\n"
"	addi	1,1,48\n"
"	li	0,64\n"
"	sc\n"
"	ld	0,16(1)\n"
"	.rept	50\n"
"	nop\n"
"	.endr\n"
"	mtlr	0\n"
"	blr\n"
"	.size	longepi,.-longepi\n"
"	.section ut_ostail,\"ax\",@progbits\n"
"	.globl	ostail\n"
"	.type	ostail,@function\n"
"ostail:\n"
"	mflr	0\n"
"	std	0,16(1)\n"
"	stdu	1,-48(1)\n"
"	bl	nop_leaf\n"
"	li	0,64\n"
"	sc\n"
"	addi	1,1,48\n"
"	b	ostail_rest\n"
"ostail_rest:\n"
"	ld	0,16(1)\n"
"	mtlr	0\n"
"	blr\n"
"	.size	ostail,.-ostail\n"
"	.text\n");

/* gcc's frame-pointer leaf: stdu, mr r31,r1 ... addi r1,r31,N; blr */
SECTION(fpleaf) __attribute__((optimize("no-omit-frame-pointer")))
void fpleaf(void)
{
	SC_GETPPID();
}

static pid_t (*volatile getppid_ptr)(void) = getppid;
static char *pages;
static long pagesize, pageidx;

SECTION(handler) void handler(int sig)
{
	(void)sig;
	leaf();
	got = 1;
}

/* A leaf without a frame: the signal interrupts it with LR its only link */
SECTION(spin) void spin(void)
{
	while (!got)
		sink++;
}

static int mode;

/* Direct calls: which call entered a function is read from the bl */
SECTION(mid) void mid(void)
{
	switch (mode) {
	case 0: leaf(); break;
	case 1: frame(); break;
	case 2: prologue(); break;
	case 3: epilogue(); break;
	case 4: leafframe(); break;
	case 5: spin(); break;
	case 6: fpleaf(); break;
	case 7: glibcsc(); break;
	case 8: plant(); sink += getppid(); break;
	case 9: plant(); sink += getppid_ptr(); break;
	case 10: popfault(pages + pagesize * pageidx++); break;
	case 11: tailfault(pages + pagesize * pageidx++); break;
	case 12: spinhint(); break;
	case 13: longepi(); break;
	case 14: ostail(); break;
	case 15: scvintr(&got); break;
	}
	sink++;		/* not a tail call */
}

SECTION(outer) void outer(void)
{
	mid();
	sink++;
}

SECTION(run) void run(long rounds)
{
	struct itimerval it = { .it_value = { .tv_usec = 2000 } };
	long r;

	for (r = 0; r < rounds; r++) {
		if (mode == 5 || mode == 15) {
			got = 0;
			if (setitimer(ITIMER_REAL, &it, NULL))
				exit(1);
		}
		outer();
	}
}

RANGE(leaf) RANGE(frame) RANGE(prologue) RANGE(epilogue)
RANGE(leafframe) RANGE(handler) RANGE(spin) RANGE(mid) RANGE(outer)
RANGE(run) RANGE(helper) RANGE(nop_leaf) RANGE(fpleaf) RANGE(glibcsc)
RANGE(saver) RANGE(plant) RANGE(popfault) RANGE(tailfault) RANGE(tailtgt)
RANGE(spinhint) RANGE(longepi) RANGE(ostail) RANGE(scvintr)

RANGE(main)

SECTION(main) int main(int argc, char **argv)
{
	static const char *const modes[] = {
		"leaf", "frame", "prologue", "epilogue", "leafframe", "signal",
		"fpleaf", "glibcsc", "scvdirect", "scvptr", "popfault",
		"tailfault", "spinhint", "longepi", "ostail", "scvintr",
	};
	const int nmodes = sizeof(modes) / sizeof(modes[0]);
	long rounds = argc > 2 ? atol(argv[2]) : 0;

	for (mode = 0; argc == 3 && mode < nmodes; mode++)
		if (!strcmp(argv[1], modes[mode]))
			break;
	if (argc != 3 || mode == nmodes || rounds < 1) {
		fprintf(stderr, "usage: ustack-ppc MODE ROUNDS (MODE: see the source)\n");
		return 2;
	}
	/* popfault, tailfault: one page never touched before, per round */
	pagesize = sysconf(_SC_PAGESIZE);
	pages = mmap(NULL, pagesize * rounds, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return 1;
	if ((mode == 5 || mode == 15) && signal(SIGALRM, handler) == SIG_ERR)
		return 1;
	range_leaf(); range_frame(); range_prologue(); range_epilogue();
	range_leafframe(); range_handler(); range_spin(); range_mid();
	range_outer(); range_run(); range_helper(); range_nop_leaf();
	range_fpleaf(); range_glibcsc(); range_saver(); range_plant();
	range_popfault(); range_tailfault(); range_tailtgt(); range_spinhint();
	range_longepi(); range_ostail(); range_scvintr(); range_main();
	fflush(stdout);
	run(rounds);
	return 0;
}

#else

int main(void)
{
	fprintf(stderr, "ustack-ppc: 64-bit ELFv2 powerpc only\n");
	return 77;
}

#endif
