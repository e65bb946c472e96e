import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { VoteState } from '../../../modules/tickets/index.ts';
import { acceptPost, answerDone, answerRefused, runAsMember } from '../../actions.ts';
import { button, form } from '../../components/index.ts';
import { html, type Html } from '../../html.ts';
import { personLink, ticketHref } from '../../links.ts';
import type { PagesDeps, Session } from '../../session.ts';

interface Asking {
  request: FastifyRequest;
  session: Session;
}

const counted = (votes: number) => `${votes} ${votes === 1 ? 'vote' : 'votes'}`;

function votesCard(session: Session, state: VoteState): Html {
  const action = `${ticketHref(state.key)}/${state.voted ? 'unvote' : 'vote'}`;
  const control = state.voted
    ? form(
        session,
        action,
        html`<p><span class="muted">You voted for this ticket.</span> ${button('Remove my vote', { kind: 'secondary' })}</p>`,
        {
          target: '#votes',
        },
      )
    : state.refusal
      ? html`<p class="muted" id="vote-refusal">${state.refusal}.</p>`
      : form(session, action, html`<p>${button('Vote', { kind: 'secondary' })}</p>`, { target: '#votes' });
  const voters = state.voters.length
    ? html`<h3 id="voters-heading">Who voted</h3><ul id="voters" aria-labelledby="voters-heading">${state.voters.map((p) => html`<li>${personLink(p)}</li>`)}</ul>`
    : '';
  return html`<section class="card" id="votes" aria-labelledby="votes-heading">
<h2 id="votes-heading">Votes</h2>
<p id="vote-count">${counted(state.votes)}</p>
${control}
${voters}
</section>`;
}

/** The ticket page's Votes section: the count, who voted, and the member's Vote or Remove my vote. */
export async function votesSection(deps: PagesDeps, asking: Asking, key: string): Promise<Html> {
  const read = await runAsMember<VoteState>(deps, asking, 'list_votes', { params: { key } });
  return read.ok ? votesCard(asking.session, read.value) : html``;
}

/** Vote and Remove my vote: vote_ticket and unvote_ticket, answered with the section as it now is. */
export function voteRoutes(app: FastifyInstance, deps: PagesDeps): void {
  for (const voting of [true, false]) {
    app.post(`/browse/:key/${voting ? 'vote' : 'unvote'}`, async (request, reply) => {
      const post = await acceptPost(request, reply, deps);
      if (!post) return reply;
      const { key } = request.params as { key: string };
      const outcome = await runAsMember<VoteState>(deps, post, voting ? 'vote_ticket' : 'unvote_ticket', { params: { key } });
      if (!outcome.ok) return answerRefused(reply, deps, post, outcome.error);
      const state = outcome.value;
      return answerDone(reply, deps, post, {
        to: `${ticketHref(state.key)}#votes`,
        flash: { kind: 'success', text: voting ? `You voted for ${state.key}.` : `You took back your vote for ${state.key}.` },
        fragment: () => votesCard(post.session, state),
      });
    });
  }
}
