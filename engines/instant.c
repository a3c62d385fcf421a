/* instant: an engine written from SPEC.md section 6 alone, that takes no time.
 *
 * It declares `feature legalmoves` and answers every `go` at once with one of the listed
 * moves, chosen at random (option Seed makes it repeatable). It needs no rules of its own,
 * so it plays every game whose moves the arbiter lists: `feature games sneferu imhotep silver-gold akropolis`.
 * Build: cc -O2 -o instant instant.c (`sneferu bench` builds and runs it). engines/instant.py
 * does the same in Python, for a machine without a C compiler.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long state = 88172645463325252ULL;

static unsigned long long next_random(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(void) {
    size_t cap = 1 << 16;
    char *line = malloc(cap);
    long long seed = 0;
    if (line == NULL) return 1;
    /* a go line with every legal move listed is read in one system call, not 4 KiB at a time */
    static char input[1 << 16];
    setvbuf(stdin, input, _IOFBF, sizeof input);
    for (;;) {
        ssize_t n = getline(&line, &cap, stdin);
        if (n < 0) break;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
        if (strncmp(line, "go ", 3) == 0) {
            char *list = strstr(line, " legalmoves ");
            if (list == NULL) { puts("move end"); fflush(stdout); continue; }
            list += strlen(" legalmoves ");
            /* no move text holds a ';' (SPEC 6): each one is a separator's */
            char *stop = line + n;
            size_t count = 1;
            for (char *p = list; (p = memchr(p, ';', (size_t)(stop - p))) != NULL; p++) count++;
            size_t pick = (size_t)(next_random() % count);
            char *start = list;
            for (size_t i = 0; i < pick; i++) start = (char *)memchr(start, ';', (size_t)(stop - start)) + 2;
            char *end = memchr(start, ';', (size_t)(stop - start));
            if (end != NULL) end[-1] = 0;
            printf("move %s\n", start);
        } else if (strcmp(line, "isready") == 0) {
            puts("readyok");
        } else if (strncmp(line, "sneferu ", 8) == 0) {
            puts("id name instant\nid author the sneferu tests\n"
                 "option name Seed type spin default 0 min 0 max 2147483647\n"
                 "feature legalmoves\nfeature games sneferu imhotep silver-gold akropolis\nsneferuok");
        } else if (strncmp(line, "setoption name Seed value ", 26) == 0) {
            seed = atoll(line + 26);
            continue;
        } else if (strncmp(line, "newgame ", 8) == 0) {
            state = 88172645463325252ULL ^ (unsigned long long)(seed * 2654435761LL + 1);
            continue;
        } else if (strcmp(line, "quit") == 0) {
            break;
        } else {
            continue;
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
