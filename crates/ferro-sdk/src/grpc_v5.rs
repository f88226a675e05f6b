//! Protocol 5 over the protocol 6 service. Apart from schemas, every tfplugin5 message has the
//! encoding of its tfplugin6 counterpart (PROTOCOL_FACTS §2.4), so each RPC re-reads the request
//! bytes as the protocol 6 message, runs the protocol 6 method and re-reads the answer as the
//! protocol 5 message. A schema with nested attributes cannot be described in protocol 5 and is
//! refused with a diagnostic; `PrepareProviderConfig` answers the configuration it was given as
//! the prepared one.

use crate::grpc::ProviderService;
use ferro_provider::plugin::proto::{tfplugin5 as v5, tfplugin6 as v6};
use prost::Message;
use std::future::Future;
use std::sync::Arc;
use tonic::{Request, Response, Status};
use v6::provider_server::Provider as _;

/// Serves tfplugin5 with the same provider object as [`ProviderService`].
pub struct ProviderServiceV5(pub Arc<ProviderService>);

type Rpc<T> = Result<Response<T>, Status>;

/// The same bytes read as another message type.
fn recode<A: Message, B: Message + Default>(a: &A) -> Result<B, Status> {
    B::decode(a.encode_to_vec().as_slice())
        .map_err(|e| Status::internal(format!("protocol 5 and 6 messages differ: {e}")))
}

/// Run the protocol 6 method `f` for a protocol 5 request.
async fn relay<A, B, C, D, F, Fut>(req: Request<A>, f: F) -> Rpc<D>
where
    A: Message,
    B: Message + Default,
    C: Message,
    D: Message + Default,
    F: FnOnce(Request<B>) -> Fut,
    Fut: Future<Output = Rpc<C>>,
{
    let resp = f(Request::new(recode(req.get_ref())?)).await?;
    Ok(Response::new(recode(resp.get_ref())?))
}

#[tonic::async_trait]
impl v5::provider_server::Provider for ProviderServiceV5 {
    async fn get_metadata(
        &self,
        req: Request<v5::get_metadata::Request>,
    ) -> Rpc<v5::get_metadata::Response> {
        relay(req, |r| self.0.get_metadata(r)).await
    }

    async fn get_resource_identity_schemas(
        &self,
        req: Request<v5::get_resource_identity_schemas::Request>,
    ) -> Rpc<v5::get_resource_identity_schemas::Response> {
        relay(req, |r| self.0.get_resource_identity_schemas(r)).await
    }

    async fn upgrade_resource_identity(
        &self,
        req: Request<v5::upgrade_resource_identity::Request>,
    ) -> Rpc<v5::upgrade_resource_identity::Response> {
        relay(req, |r| self.0.upgrade_resource_identity(r)).await
    }

    async fn get_schema(
        &self,
        _: Request<v5::get_provider_schema::Request>,
    ) -> Rpc<v5::get_provider_schema::Response> {
        let wide = self.0.schema_response(true);
        let mut resp: v5::get_provider_schema::Response = recode(&wide)?;
        // `write_only` has another field number in protocol 5: carry it over by hand.
        for (name, s) in resp.resource_schemas.iter_mut() {
            if let (Some(b5), Some(b6)) = (
                s.block.as_mut(),
                wide.resource_schemas
                    .get(name)
                    .and_then(|w| w.block.as_ref()),
            ) {
                carry_write_only(b6, b5);
            }
        }
        Ok(Response::new(resp))
    }

    async fn prepare_provider_config(
        &self,
        req: Request<v5::prepare_provider_config::Request>,
    ) -> Rpc<v5::prepare_provider_config::Response> {
        let config = req.get_ref().config.clone();
        let mut resp: Response<v5::prepare_provider_config::Response> =
            relay(req, |r| self.0.validate_provider_config(r)).await?;
        resp.get_mut().prepared_config = config;
        Ok(resp)
    }

    async fn validate_resource_type_config(
        &self,
        req: Request<v5::validate_resource_type_config::Request>,
    ) -> Rpc<v5::validate_resource_type_config::Response> {
        relay(req, |r| self.0.validate_resource_config(r)).await
    }

    async fn validate_data_source_config(
        &self,
        req: Request<v5::validate_data_source_config::Request>,
    ) -> Rpc<v5::validate_data_source_config::Response> {
        relay(req, |r| self.0.validate_data_resource_config(r)).await
    }

    async fn upgrade_resource_state(
        &self,
        req: Request<v5::upgrade_resource_state::Request>,
    ) -> Rpc<v5::upgrade_resource_state::Response> {
        relay(req, |r| self.0.upgrade_resource_state(r)).await
    }

    async fn configure(
        &self,
        req: Request<v5::configure::Request>,
    ) -> Rpc<v5::configure::Response> {
        relay(req, |r| self.0.configure_provider(r)).await
    }

    async fn read_resource(
        &self,
        req: Request<v5::read_resource::Request>,
    ) -> Rpc<v5::read_resource::Response> {
        relay(req, |r| self.0.read_resource(r)).await
    }

    async fn plan_resource_change(
        &self,
        req: Request<v5::plan_resource_change::Request>,
    ) -> Rpc<v5::plan_resource_change::Response> {
        relay(req, |r| self.0.plan_resource_change(r)).await
    }

    async fn apply_resource_change(
        &self,
        req: Request<v5::apply_resource_change::Request>,
    ) -> Rpc<v5::apply_resource_change::Response> {
        relay(req, |r| self.0.apply_resource_change(r)).await
    }

    async fn import_resource_state(
        &self,
        req: Request<v5::import_resource_state::Request>,
    ) -> Rpc<v5::import_resource_state::Response> {
        relay(req, |r| self.0.import_resource_state(r)).await
    }

    async fn move_resource_state(
        &self,
        req: Request<v5::move_resource_state::Request>,
    ) -> Rpc<v5::move_resource_state::Response> {
        relay(req, |r| self.0.move_resource_state(r)).await
    }

    async fn read_data_source(
        &self,
        req: Request<v5::read_data_source::Request>,
    ) -> Rpc<v5::read_data_source::Response> {
        relay(req, |r| self.0.read_data_source(r)).await
    }

    async fn get_functions(
        &self,
        req: Request<v5::get_functions::Request>,
    ) -> Rpc<v5::get_functions::Response> {
        relay(req, |r| self.0.get_functions(r)).await
    }

    async fn call_function(
        &self,
        req: Request<v5::call_function::Request>,
    ) -> Rpc<v5::call_function::Response> {
        relay(req, |r| self.0.call_function(r)).await
    }

    async fn validate_ephemeral_resource_config(
        &self,
        req: Request<v5::validate_ephemeral_resource_config::Request>,
    ) -> Rpc<v5::validate_ephemeral_resource_config::Response> {
        relay(req, |r| self.0.validate_ephemeral_resource_config(r)).await
    }

    async fn open_ephemeral_resource(
        &self,
        req: Request<v5::open_ephemeral_resource::Request>,
    ) -> Rpc<v5::open_ephemeral_resource::Response> {
        relay(req, |r| self.0.open_ephemeral_resource(r)).await
    }

    async fn renew_ephemeral_resource(
        &self,
        req: Request<v5::renew_ephemeral_resource::Request>,
    ) -> Rpc<v5::renew_ephemeral_resource::Response> {
        relay(req, |r| self.0.renew_ephemeral_resource(r)).await
    }

    async fn close_ephemeral_resource(
        &self,
        req: Request<v5::close_ephemeral_resource::Request>,
    ) -> Rpc<v5::close_ephemeral_resource::Response> {
        relay(req, |r| self.0.close_ephemeral_resource(r)).await
    }

    async fn stop(&self, req: Request<v5::stop::Request>) -> Rpc<v5::stop::Response> {
        relay(req, |r| self.0.stop_provider(r)).await
    }
}

/// Set the protocol 5 `write_only` flags of `to` from the protocol 6 block it was recoded from
/// (same attributes and nested blocks, in the same order).
fn carry_write_only(from: &v6::schema::Block, to: &mut v5::schema::Block) {
    for (a6, a5) in from.attributes.iter().zip(to.attributes.iter_mut()) {
        a5.write_only = a6.write_only;
    }
    for (n6, n5) in from.block_types.iter().zip(to.block_types.iter_mut()) {
        if let (Some(b6), Some(b5)) = (n6.block.as_ref(), n5.block.as_mut()) {
            carry_write_only(b6, b5);
        }
    }
}
