// SPDX-License-Identifier: GPL-2.0
/*
 * fgraph-bench: register "users" function-graph users (struct fgraph_ops)
 * with trivial entry and return callbacks, each filtered to the functions
 * named in "filter", so that make bench can time the fgraph core alone.
 * Built against the series, stock 6.1 and stock 6.12 (scripts/bench.sh).
 *
 * Stock 6.1 has one user and no per-user filter: it uses the global filter
 * (the plan writes set_ftrace_filter), and a second user is refused there,
 * which this module reports as its load error.
 *
 * register_ftrace_graph() is not exported by the stock kernels, so the
 * module finds it through kallsyms_lookup_name(), whose address a kprobe
 * reveals. The counters "entries" and "returns" (module parameters, read
 * only) let the plan check that every user really ran. "times" makes
 * the users ask for calltime and rettime where the kernel lets them
 * choose (the series' FGRAPH_OPS_TIME); stock kernels always read them.
 */
#include <linux/module.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include <linux/version.h>

#define BENCH_MAX_USERS 16

/* Kernels whose fgraph_ops carry their own ftrace_ops and filter */
#if defined(FGRAPH_ARRAY_SIZE) || LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define BENCH_MULTI 1
#else
#define BENCH_MULTI 0
#endif

static int users = 1;
module_param(users, int, 0444);
MODULE_PARM_DESC(users, "number of fgraph_ops to register (1-16)");

static bool times;
module_param(times, bool, 0444);
MODULE_PARM_DESC(times, "ask for the entry and return times (FGRAPH_OPS_TIME; stock kernels always read them)");

static char *filter = "*sys_getppid";
module_param(filter, charp, 0444);
MODULE_PARM_DESC(filter, "functions each user traces (set_ftrace_filter syntax)");

/* Plain counters: make bench boots one vCPU, and they only check coverage */
static unsigned long entries, returns;
module_param(entries, ulong, 0444);
module_param(returns, ulong, 0444);

static int (*reg)(struct fgraph_ops *gops);
static void (*unreg)(struct fgraph_ops *gops);
static struct fgraph_ops bench_ops[BENCH_MAX_USERS];
static int registered;

#if BENCH_MULTI
static int bench_entry(struct ftrace_graph_ent *trace, struct fgraph_ops *gops)
{
	entries++;
	return 1;
}

static void bench_return(struct ftrace_graph_ret *trace, struct fgraph_ops *gops)
{
	returns++;
}
#else
static int bench_entry(struct ftrace_graph_ent *trace)
{
	entries++;
	return 1;
}

static void bench_return(struct ftrace_graph_ret *trace)
{
	returns++;
}
#endif

static unsigned long bench_lookup(const char *name)
{
	static unsigned long (*lookup)(const char *name);
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };

	if (!lookup) {
		if (register_kprobe(&kp) < 0)
			return 0;
		lookup = (void *)kp.addr;
		unregister_kprobe(&kp);
	}
	return lookup ? lookup(name) : 0;
}

static void bench_unregister(void)
{
	while (registered > 0)
		unreg(&bench_ops[--registered]);
#if BENCH_MULTI
	for (int i = 0; i < users; i++)
		ftrace_free_filter(&bench_ops[i].ops);
#endif
}

static int __init bench_init(void)
{
	int i, ret;

	if (users < 1 || users > BENCH_MAX_USERS) {
		pr_warn("fgraph-bench: users=%d, want 1-%d\n", users,
			BENCH_MAX_USERS);
		return -EINVAL;
	}
	reg = (void *)bench_lookup("register_ftrace_graph");
	unreg = (void *)bench_lookup("unregister_ftrace_graph");
	if (!reg || !unreg) {
		pr_warn("fgraph-bench: register_ftrace_graph not found\n");
		return -ENOENT;
	}
	for (i = 0; i < users; i++) {
		struct fgraph_ops *gops = &bench_ops[i];

		gops->entryfunc = bench_entry;
		gops->retfunc = bench_return;
#ifdef FGRAPH_OPS_TIME
		if (times)
			gops->flags |= FGRAPH_OPS_TIME;
#endif
#if BENCH_MULTI
		ret = ftrace_set_filter(&gops->ops, filter, strlen(filter), 1);
		if (ret) {
			pr_warn("fgraph-bench: filter \"%s\": %d\n", filter, ret);
			goto fail;
		}
#endif
		ret = reg(gops);
		if (ret) {
			pr_warn("fgraph-bench: user %d of %d refused: %d\n",
				i + 1, users, ret);
			goto fail;
		}
		registered++;
	}
	return 0;
fail:
	bench_unregister();
	return ret;
}

static void __exit bench_exit(void)
{
	bench_unregister();
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_DESCRIPTION("make bench: the cost of K function-graph users");
MODULE_LICENSE("GPL");
